import FolioClient

/// Draws one frame: the visible rows (placeholders as `…`) and the latest list events.
struct Screen {
    /// Clear and redraw in place (ANSI) rather than printing frames one after another.
    var redraw: Bool

    func draw(list: PagedList<ScrollRow>, visible: Range<Int>, events: [String]) {
        var lines: [String] = []
        lines.append("rows \(visible.lowerBound)–\(visible.upperBound - 1) of \(list.count)")
        for index in visible {
            let label = list[index]?.label ?? "…"
            lines.append("\(String(index).leftPadded(to: 6))  \(label)")
        }
        lines.append("")
        lines += events
        if redraw {
            print("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\n"))
        } else {
            print(lines.joined(separator: "\n") + "\n")
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}

/// The last few list changes as text.
actor EventLog {
    private(set) var recent: [String] = []

    func record(_ change: PagedListChange) {
        let line =
            switch change {
            case .pageLoaded(let range): "loaded    rows \(range.lowerBound)–\(range.upperBound - 1)"
            case .pageCancelled(let page): "cancelled page \(page)"
            case .pageFailed(let page, let error): "failed    page \(page): \(error)"
            case .reset(let count): "reset     snapshot expired, \(count) rows now"
            case .changed(let change):
                "changed   \(change.inserted.count) in, \(change.removed.count) out, "
                    + "\(change.reloaded.count) changed, \(change.moved.count) moved; \(change.count) rows now"
            }
        recent = Array((recent + [line]).suffix(8))
    }
}
