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
        } catch {
            throw ValidationError("cannot load \(url): \(error)")
        }
        let events = EventLog()
        let watcher = Task {
            for await change in list.changes { await events.record(change) }
        }
        var top = 0
        var screen = Screen(redraw: !plain)
        while true {
            let visible = top..<min(top + rows, list.count)
            list.setVisibleRange(visible)
            for _ in 0..<3 {
                screen.draw(list: list, visible: visible, events: await events.recent)
                try await Task.sleep(for: .milliseconds(interval))
            }
            if visible.upperBound >= list.count { break }
            top = min(top + step, max(list.count - rows, 0))
        }
        // Let the last rows fill in, then show the final frame.
        try await Task.sleep(for: .milliseconds(interval * 5))
        let visible = top..<min(top + rows, list.count)
        screen.draw(list: list, visible: visible, events: await events.recent)
        watcher.cancel()
        let statistics = list.statistics
        print(
            "pages: \(statistics.started) requested, \(statistics.loaded) loaded, "
                + "\(statistics.cancelled) cancelled, \(statistics.failed) failed, \(statistics.resets) resets")
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
