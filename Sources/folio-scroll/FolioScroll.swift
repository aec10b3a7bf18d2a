import ArgumentParser
import FolioClient
import Foundation

/// Scrolls a Folio list in the terminal the way a table view would: a window of rows moves down
/// the list; rows show `…` until their page arrives; pages scrolled past before they arrived are
/// cancelled and listed as such.
@main
struct FolioScroll: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folio-scroll",
        abstract: "Scroll a Folio list in the terminal: placeholders filling in, cancelled pages shown.")

    @Option(help: "The list route's URL (start `folio demo` for the default).")
    var url = "http://127.0.0.1:8080/objects"

    @Option(help: "The route's dialect: \(Dialect.allCases.map(\.rawValue).joined(separator: ", ")).")
    var dialect = "folio"

    @Option(help: "The route's paging parameter names if it renames them (its `params`), e.g. pageSize=n,offset=from.")
    var params = ""

    @Option(help: "Items per page request.")
    var pageSize = 25

    @Option(help: "Pages prefetched on each side of the visible rows.")
    var margin = 1

    @Option(help: "Rows on screen.")
    var rows = 15

    @Option(help: "Rows moved per frame (a fast fling moves many).")
    var step = 40

    @Option(help: "Milliseconds between frames.")
    var interval = 60

    @Option(
        help: """
            Fling: move --step rows on every frame for this many frames, then rest until the \
            visible rows are in (and so on to the end); 0 moves at the even pace of 3 frames a step.
            """)
    var fling = 0

    @Flag(
        help: """
            Watch the list while scrolling (docs/API.md, "Watching a list"): rows appear and vanish \
            as the upstream changes. Needs a route with `idField`.
            """)
    var watch = false

    @Flag(help: "Print frames one after another instead of redrawing the screen.")
    var plain = false

    func run() async throws {
        guard let listURL = URL(string: url), let dialect = Dialect(rawValue: dialect) else {
            throw ValidationError(
                "--url must be a URL and --dialect one of \(Dialect.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let list = PagedList<ScrollRow>(
            endpoint: ListEndpoint(url: listURL, dialect: dialect, parameterNames: try parameterNames()),
            pageSize: pageSize, prefetchMargin: margin)
        do {
            try await list.load()
        } catch let error as ClientError {
            // A plain line, not the usage text: the arguments were fine, the server was not.
            let hint = error.reason == .cannotConnect ? " (is `folio demo` running?)" : ""
            FileHandle.standardError.write(Data("folio-scroll: cannot load \(url): \(error.detail)\(hint)\n".utf8))
            throw ExitCode.failure
        }
        let events = EventLog()
        let watcher = Task {
            for await change in list.changes { await events.record(change) }
        }
        let changesWatcher = watch ? Task { try await list.watch() } : nil
        defer { changesWatcher?.cancel() }
        var top = 0
        var screen = Screen(redraw: !plain)
        var frame = 0
        // The pages shown at rest (the opening rows too) and their margins: what a fling should
        // cost at most.
        var restPages = pagesWithMargin(0..<min(rows, list.count), count: list.count, pageSize: list.pageSize)
        while true {
            let visible = top..<min(top + rows, list.count)
            list.setVisibleRange(visible)
            let atEnd = visible.upperBound >= list.count
            if fling > 0 {
                screen.draw(list: list, visible: visible, events: await events.recent)
                try await Task.sleep(for: .milliseconds(interval))
                frame += 1
                if frame % fling == 0 || atEnd {
                    restPages.formUnion(pagesWithMargin(visible, count: list.count, pageSize: list.pageSize))
                    // The finger is off: no more ranges; the list settles by itself.
                    for _ in 0..<(10_000 / max(interval, 1)) where visible.contains(where: { list.peek(at: $0) == nil })
                    {
                        screen.draw(list: list, visible: visible, events: await events.recent)
                        try await Task.sleep(for: .milliseconds(interval))
                    }
                }
            } else {
                for _ in 0..<3 {
                    screen.draw(list: list, visible: visible, events: await events.recent)
                    try await Task.sleep(for: .milliseconds(interval))
                }
            }
            if atEnd { break }
            top = min(top + step, max(list.count - rows, 0))
        }
        // The scroll has stopped: the last rows fill in (or fail, said in the events) before the
        // final frame, so it shows no placeholder that is merely late.
        let visible = top..<min(top + rows, list.count)
        list.setVisibleRange(visible)
        for index in visible { _ = try? await list.element(at: index) }
        try await Task.sleep(for: .milliseconds(interval))  // the events of the last pages
        screen.draw(list: list, visible: visible, events: await events.recent)
        watcher.cancel()
        let statistics = list.statistics
        print(
            "pages: \(statistics.started) requested, \(statistics.loaded) loaded, "
                + "\(statistics.cancelled) cancelled, \(statistics.failed) failed, \(statistics.resets) resets")
        if fling > 0 { print("pages shown at rest, with their margin: \(restPages.count)") }
    }

    /// The pages of `visible` and `margin` pages on each side.
    func pagesWithMargin(_ visible: Range<Int>, count: Int, pageSize: Int) -> Set<Int> {
        guard !visible.isEmpty else { return [] }
        let last = (count - 1) / pageSize
        return Set(
            max(visible.lowerBound / pageSize - margin, 0)...min((visible.upperBound - 1) / pageSize + margin, last))
    }

    /// `--params`: `ROLE=NAME` pairs for the roles `pageSize`, `offset` and `page`.
    func parameterNames() throws -> ParameterNames {
        var names = ParameterNames.standard
        for pair in params.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0) }
            guard parts.count == 2, !parts[1].isEmpty else {
                throw ValidationError("--params takes ROLE=NAME pairs separated by commas, not '\(pair)'")
            }
            switch parts[0] {
            case "pageSize": names.pageSize = parts[1]
            case "offset": names.offset = parts[1]
            case "page": names.page = parts[1]
            default: throw ValidationError("--params: '\(parts[0])' is not pageSize, offset or page")
            }
        }
        return names
    }
}
