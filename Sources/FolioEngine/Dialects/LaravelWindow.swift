/// The numbered entries of Laravel's `links` (`LengthAwarePaginator::linkCollection()` over `UrlWindow::make()`,
/// Laravel 10): page numbers and the `...` gaps between them, for a paginator with `onEachSide` 3.
///
/// Fewer than `2 * onEachSide + 8` pages: all of them. Otherwise, with `window = onEachSide + 4`: a current page
/// within `window` of the start gives pages 1…`window + onEachSide`, `...`, the last two; within `window` of the end,
/// pages 1 and 2, `...`, the last `window + onEachSide` pages; else pages 1 and 2, `...`, the current page with
/// `onEachSide` on each side, `...`, the last two.
enum LaravelWindow {
    enum Entry: Equatable {
        case page(Int)
        case gap
    }

    /// Laravel's default `onEachSide`.
    static let onEachSide = 3

    /// The entries for `current` (1-based, may lie past `last`) of `last` pages (at least 1).
    static func entries(current: Int, last: Int, onEachSide: Int = onEachSide) -> [Entry] {
        guard last >= 2 * onEachSide + 8 else { return pages(1, last) }
        let window = onEachSide + 4
        let start = pages(1, 2)
        let finish = pages(last - 1, last)
        if current <= window {
            return pages(1, window + onEachSide) + [.gap] + finish
        }
        if current > last - window {
            return start + [.gap] + pages(last - (window + onEachSide - 1), last)
        }
        return start + [.gap] + pages(current - onEachSide, current + onEachSide) + [.gap] + finish
    }

    private static func pages(_ first: Int, _ last: Int) -> [Entry] {
        (first...last).map(Entry.page)
    }
}
