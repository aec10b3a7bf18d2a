import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `sync()` and `watch()` against the real gateway (docs/CLIENT.md, "Keeping the user's place"): a legacy upstream
/// that returns its whole array and changes at random; Folio computes the changes between its snapshots. After
/// every change the list's loaded rows are the newest list's rows at their indexes; at the end it equals a fresh
/// walk, and no row a page answer carried was asked again (the list asks only for rows still missing).
@Suite struct GatewaySyncTests {
    typealias Row = ListPatchTests.Row
    enum Mode: String, CaseIterable, Sendable { case sync, watch }

    @Test(arguments: Mode.allCases) func randomUpstreamChangesEndEqualToAFreshWalk(mode: Mode) async throws {
        let upstream = LegacyList(count: 150, seed: mode == .sync ? 11 : 12)
        // `sync`: every `since` refetches (ttl 0). `watch`: Folio refreshes the watched list itself.
        let cache = mode == .sync ? "{ ttl: 0s, staleWhileRevalidate: 0s, staleIfError: 0s }" : "{ ttl: 300ms }"
        try await withTestUpstream({ _ in .json(upstream.body) }) { server in
            let yaml = """
                server:
                  listen: 127.0.0.1:0
                  admin: null
                  watch: { heartbeat: 1s }
                routes:
                  - name: objects
                    path: /objects
                    upstream: \(server.baseURL)/objects
                    idField: id
                    pageSize: 20
                    cache: \(cache)
                """
            try await withClientGateway(yaml) { objects, _ in
                let recorder = RecordingTransport()
                let list = PagedList<Row>(
                    endpoint: ListEndpoint(url: objects, transport: recorder), pageSize: 20, prefetchMargin: 0)
                try await list.load()
                var random = SplitMix(seed: 5)
                for _ in 0..<40 { _ = try await list.element(at: Int.random(in: 0..<list.count, using: &random)) }
                let watcher = mode == .watch ? Task { try await list.watch() } : nil
                defer { watcher?.cancel() }
                for round in 1...6 {
                    let before = list.snapshot
                    upstream.change()
                    let newest = upstream.newest
                    if mode == .sync {
                        // A fill in flight when the upstream changed (a page the list was still
                        // loading) may answer the first `since`, which joins it: sync again then.
                        for _ in 0..<5 {
                            let change = try #require(try await list.sync(), "round \(round)")
                            if change.count == newest.count, list.snapshot != before { break }
                            try await Task.sleep(for: .milliseconds(100))
                        }
                    }
                    let moved = await eventually(timeout: .seconds(20)) {
                        list.snapshot != before && list.count == newest.count
                            && (0..<newest.count).allSatisfy { index in
                                list.peek(at: index).map { $0 == newest[index] } ?? true
                            }
                    }
                    #expect(moved, "round \(round): the list follows the upstream's change")
                    for index in 0..<list.count {
                        if let row = list.peek(at: index) { #expect(row == upstream.newest[index], "round \(round)") }
                    }
                    for _ in 0..<8 { _ = try await list.element(at: Int.random(in: 0..<list.count, using: &random)) }
                }
                watcher?.cancel()
                var walked: [Row] = []
                for index in 0..<list.count { walked.append(try #require(try await list.element(at: index))) }
                #expect(walked == upstream.newest)
                #expect(recorder.rowsServedTwice == [], "rows the list had loaded were asked again")
                #expect(list.statistics.resets == 0)
            }
        }
    }
}

/// A legacy endpoint's whole array of `{"id":…,"version":…}` rows, changed at random: removes, adds, new versions
/// and moves.
final class LegacyList: Sendable {
    private struct State {
        var rows: [Row]
        var random: SplitMix
        var nextID = 10_000
    }
    typealias Row = ListPatchTests.Row
    private let state: Mutex<State>

    init(count: Int, seed: UInt64) {
        state = Mutex(State(rows: (0..<count).map { Row(id: $0) }, random: SplitMix(seed: seed)))
    }

    var newest: [Row] { state.withLock { $0.rows } }
    var body: String {
        "[" + state.withLock { $0.rows }.map { #"{"id":\#($0.id),"version":\#($0.version)}"# }.joined(separator: ",")
            + "]"
    }

    func change() {
        state.withLock { state in
            for _ in 0..<Int.random(in: 2...8, using: &state.random) {
                let count = state.rows.count
                switch Int.random(in: 0..<4, using: &state.random) {
                case 0 where count > 1: state.rows.remove(at: Int.random(in: 0..<count, using: &state.random))
                case 1:
                    state.nextID += 1
                    state.rows.insert(Row(id: state.nextID), at: Int.random(in: 0...count, using: &state.random))
                case 2 where count > 0: state.rows[Int.random(in: 0..<count, using: &state.random)].version += 1
                default:
                    guard count > 1 else { continue }
                    let row = state.rows.remove(at: Int.random(in: 0..<count, using: &state.random))
                    state.rows.insert(row, at: Int.random(in: 0..<count, using: &state.random))
                }
            }
        }
    }
}

/// The default transport, noting every row (`id.version`) that a page answer carried: a row carried twice was
/// asked again. Streams pass through.
final class RecordingTransport: StreamingTransport {
    private let inner = URLSessionTransport()
    private let served = Mutex<[String: Int]>([:])

    var rowsServedTwice: [String] { served.withLock { $0.filter { $0.value > 1 }.map(\.key).sorted() } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await inner.send(request)
        let isPage = !(request.url?.query ?? "").contains("since=")
        if isPage, response.statusCode == 200,
            let body = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let items = body["items"] as? [[String: Any]]
        {
            served.withLock { served in
                for item in items { served["\(item["id"] ?? "?").\(item["version"] ?? "?")", default: 0] += 1 }
            }
        }
        return (data, response)
    }

    func stream(_ request: URLRequest) async throws -> StreamedAnswer {
        try await inner.stream(request)
    }
}
