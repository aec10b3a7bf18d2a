import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioClient

/// `sync()` and `watch()` against a real HTTP server on loopback that plays Folio's change feed
/// (docs/API.md, "Changes between snapshots" and "Watching a list") over a list it changes at
/// random, written here to the wire format of those sections: a server whose answers the test
/// controls (a stream that ends after each event, forgotten tokens). `GatewaySyncTests` runs the
/// same against the real gateway.
@Suite struct WatchTests {
    enum Mode: String, CaseIterable, Sendable { case sync, watch }

    /// Eight random changes of a 200-row list, partly loaded, each followed by reads of random
    /// rows: the list ends equal to a fresh walk of the newest list, and no row the list had
    /// loaded is asked again (later loads ask only for rows still missing).
    @Test(arguments: Mode.allCases) func randomChangesEndEqualToAFreshList(mode: Mode) async throws {
        let feed = ChangingList(count: 200, seed: mode == .sync ? 1 : 2)
        try await withTestUpstream({ await feed.answer($0) }) { server in
            let url = try #require(URL(string: server.baseURL + "/objects?sort=name"))
            let list = PagedList<ListPatchTests.Row>(endpoint: ListEndpoint(url: url), pageSize: 20, prefetchMargin: 0)
            try await list.load()
            let log = ChangeLog.of(list)
            defer { log.stop() }
            var random = SplitMix(seed: 7)
            for _ in 0..<60 { _ = try await list.element(at: Int.random(in: 0..<list.count, using: &random)) }
            let watcher = mode == .watch ? Task { try await list.watch() } : nil
            defer { watcher?.cancel() }
            var nonEmpty = 0  // a patch can undo itself (a row added, then removed): no `.changed`
            for round in 1...8 {
                feed.change()
                if mode == .sync {
                    let change = try #require(try await list.sync())
                    #expect(change.count == feed.newest.count)
                    if !change.isEmpty { nonEmpty += 1 }
                }
                #expect(await eventually(timeout: .seconds(15)) { list.snapshot == "T\(round)" }, "round \(round)")
                #expect(list.count == feed.newest.count)
                // Every loaded row is the newest list's row at its index.
                for index in 0..<list.count { if let row = list.peek(at: index) { #expect(row == feed.newest[index]) } }
                for _ in 0..<10 { _ = try await list.element(at: Int.random(in: 0..<list.count, using: &random)) }
            }
            watcher?.cancel()
            var walked: [ListPatchTests.Row] = []
            for index in 0..<list.count { walked.append(try #require(try await list.element(at: index))) }
            #expect(walked == feed.newest)
            #expect(feed.rowsServedTwice == [], "rows the list had loaded were asked again")
            @Sendable func reported() -> Int { log.all.filter { if case .changed = $0 { true } else { false } }.count }
            // The log's reader runs on its own: wait for it to catch up.
            let made = nonEmpty
            if mode == .sync {
                #expect(await eventually { reported() == made }, "\(reported()) changes reported, \(made) made")
            } else {
                #expect(await eventually { reported() > 0 } && reported() <= 8)
            }
            #expect(!log.all.contains { if case .reset = $0 { true } else { false } })
            if mode == .watch {
                #expect(feed.reconnectsWithLastEventID > 0, "the stream ends after each event here: reconnects")
            }
        }
    }

    /// A token the server no longer knows: the list resets as after a page's 410.
    @Test func anExpiredTokenResets() async throws {
        let feed = ChangingList(count: 50, seed: 3)
        try await withTestUpstream({ await feed.answer($0) }) { server in
            let url = try #require(URL(string: server.baseURL + "/objects"))
            let list = PagedList<ListPatchTests.Row>(endpoint: ListEndpoint(url: url), pageSize: 20)
            try await list.load()
            feed.change()
            feed.forgetOld()
            #expect(try await list.sync() == nil)
            #expect(list.snapshot == "T1" && list.count == feed.newest.count)
            #expect(list.statistics.resets == 1)
        }
    }
}

/// A list that changes at random, answering pages (Folio's envelope, `snapshot` pinned) and
/// `since` requests (one JSON answer, or an event stream that sends what is pending and ends).
final class ChangingList: Sendable {
    private struct State {
        var versions: [[ListPatchTests.Row]]
        var patches: [[String]] = []  // patches[i]: JSON operations from T(i) to T(i+1)
        var forgotten = 0
        var random: SplitMix
        var nextID = 100_000
        var served: [String: Int] = [:]
        var reconnects = 0
    }

    private let state: Mutex<State>

    init(count: Int, seed: UInt64) {
        state = Mutex(
            State(versions: [(0..<count).map { ListPatchTests.Row(id: $0) }], random: SplitMix(seed: seed)))
    }

    var newest: [ListPatchTests.Row] { state.withLock { $0.versions.last! } }
    var reconnectsWithLastEventID: Int { state.withLock { $0.reconnects } }
    /// Rows (`id.version`) a page answer carried more than once.
    var rowsServedTwice: [String] { state.withLock { $0.served.filter { $0.value > 1 }.map(\.key).sorted() } }

    /// Tokens before the newest answer 410 from now on.
    func forgetOld() { state.withLock { $0.forgotten = $0.versions.count - 1 } }

    /// A new version: a few random removes, adds, replaces and moves.
    func change() {
        state.withLock { state in
            var rows = state.versions.last!
            var operations: [String] = []
            for _ in 0..<Int.random(in: 1...10, using: &state.random) {
                let kind = rows.isEmpty ? 1 : Int.random(in: 0..<4, using: &state.random)
                switch kind {
                case 0:
                    let index = Int.random(in: 0..<rows.count, using: &state.random)
                    rows.remove(at: index)
                    operations.append(#"{"op":"remove","path":"/\#(index)"}"#)
                case 1:
                    let index = Int.random(in: 0...rows.count, using: &state.random)
                    state.nextID += 1
                    rows.insert(ListPatchTests.Row(id: state.nextID), at: index)
                    operations.append(#"{"op":"add","path":"/\#(index)","value":\#(Self.json(rows[index]))}"#)
                case 2:
                    let index = Int.random(in: 0..<rows.count, using: &state.random)
                    rows[index].version += 1
                    operations.append(#"{"op":"replace","path":"/\#(index)","value":\#(Self.json(rows[index]))}"#)
                default:
                    let from = Int.random(in: 0..<rows.count, using: &state.random)
                    let to = Int.random(in: 0..<rows.count, using: &state.random)
                    rows.insert(rows.remove(at: from), at: to)
                    operations.append(#"{"op":"move","from":"/\#(from)","path":"/\#(to)"}"#)
                }
            }
            state.versions.append(rows)
            state.patches.append(operations)
        }
    }

    static func json(_ row: ListPatchTests.Row) -> String { #"{"id":\#(row.id),"version":\#(row.version)}"# }

    func answer(_ request: TestUpstream.Recorded) async -> TestUpstream.Reply {
        let query = Dictionary(
            (URLComponents(string: "http://x/?" + (request.query ?? ""))?.queryItems ?? []).map {
                ($0.name, $0.value ?? "")
            },
            uniquingKeysWith: { $1 })
        let lastEventID = request.header("Last-Event-ID")
        if let token = lastEventID ?? query["since"] {
            let streams = request.header("Accept") == "text/event-stream"
            if streams, lastEventID != nil { state.withLock { $0.reconnects += 1 } }
            guard let from = version(token) else { return gone() }
            if streams {
                // Hold the stream open a while for a change, as Folio holds it until one comes.
                for _ in 0..<50 where state.withLock({ $0.versions.count - 1 }) == from {
                    try? await Task.sleep(for: .milliseconds(20))
                }
                let events = state.withLock { state in
                    let to = state.versions.count - 1
                    guard to > from else { return [event(from, from, [], in: state)] }
                    return (from..<to).map { event($0, $0 + 1, state.patches[$0], in: state) }
                }
                return TestUpstream.Reply(
                    headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")],
                    chunks: events.map { Array($0.utf8) })
            }
            return .json(
                state.withLock { state in
                    let to = state.versions.count - 1
                    return changes(from, to, Array(state.patches[from..<to].joined()), in: state)
                })
        }
        let newest = state.withLock { $0.versions.count - 1 }
        guard let snapshot = query["snapshot"] == nil ? newest : version(query["snapshot"]!) else { return gone() }
        let offset = Int(query["offset"] ?? "0") ?? 0
        let limit = Int(query["pageSize"] ?? "20") ?? 20
        return .json(
            state.withLock { state in
                let rows = state.versions[snapshot]
                let page = Array(rows[min(offset, rows.count)..<min(offset + limit, rows.count)])
                for row in page { state.served["\(row.id).\(row.version)", default: 0] += 1 }
                let items = page.map(Self.json).joined(separator: ",")
                return #"{"paging":{"totalCount":\#(rows.count),"snapshot":"T\#(snapshot)"},"items":[\#(items)]}"#
            })
    }

    private func version(_ token: String) -> Int? {
        guard token.first == "T", let index = Int(token.dropFirst()) else { return nil }
        return state.withLock { index >= $0.forgotten && index < $0.versions.count ? index : nil }
    }

    private func gone() -> TestUpstream.Reply {
        let newest = state.withLock { $0.versions.count - 1 }
        return .json(
            #"{"type":"about:blank","title":"Gone","status":410,"detail":"snapshot expired"}"#, status: 410,
            headers: [("Link", #"</objects?pageSize=20&offset=0&snapshot=T\#(newest)>; rel="first""#)])
    }

    private func changes(_ from: Int, _ to: Int, _ operations: [String], in state: State) -> String {
        #"{"changes":{"from":"T\#(from)","to":"T\#(to)","count":\#(state.versions[to].count),"#
            + #""previousCount":\#(state.versions[from].count)},"patch":[\#(operations.joined(separator: ","))]}"#
    }

    private func event(_ from: Int, _ to: Int, _ operations: [String], in state: State) -> String {
        // The JSON over two `data:` lines, as a line break between its members would put it.
        let json = changes(from, to, operations, in: state)
        let cut = json.range(of: #""patch""#)!.lowerBound
        return "event: changes\nid: T\(to)\ndata: \(json[..<cut])\ndata: \(json[cut...])\n\n"
    }
}
