import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioClient

/// `load()` as apps call it (docs/CLIENT.md, "Paged list"): from several places at once, from
/// tasks that get cancelled, and racing a reset after a 410.
@Suite struct LoadTests {
    /// Calls that overlap share one request and all return with the list loaded.
    @Test func overlappingLoadsShareOneRequest() async throws {
        let (body, items) = upstreamItems(100)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL)) { objects, requests in
                let gate = GateTransport()
                let list = PagedList<Item>(endpoint: ListEndpoint(url: objects, transport: gate), pageSize: 20)
                let callers = (0..<5).map { _ in Task { try await list.load() } }
                #expect(await eventually { gate.held == 1 })
                try await Task.sleep(for: .milliseconds(50))
                #expect(gate.held == 1, "one request for five calls")
                gate.setOpen(true)
                for caller in callers { try await caller.value }
                #expect(list.count == items.count)
                #expect(requests.count() == 1)
                #expect(list.statistics == PagedListStatistics(started: 1, loaded: 1))
            }
        }
    }

    /// A hundred `load()`s whose tasks are cancelled (a SwiftUI `.task` leaving the screen): one
    /// request, cancelled once no caller waits for it, counted as cancelled, never as failed.
    @Test func cancelledLoadsAreNotFailures() async throws {
        let (body, items) = upstreamItems(100)
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            try await withClientGateway(clientYAML(upstream: upstream.baseURL)) { objects, _ in
                let gate = GateTransport()
                let list = PagedList<Item>(endpoint: ListEndpoint(url: objects, transport: gate), pageSize: 20)
                let callers = (0..<100).map { _ in Task { try await list.load() } }
                #expect(await eventually { gate.held == 1 })
                for caller in callers { caller.cancel() }
                for caller in callers {
                    await #expect(throws: CancellationError.self) { try await caller.value }
                }
                #expect(list.statistics == PagedListStatistics(started: 1, cancelled: 1))
                #expect(gate.passed == 0)
                gate.setOpen(true)
                try await list.load()
                #expect(list.count == items.count)
                #expect(list.statistics == PagedListStatistics(started: 2, loaded: 1, cancelled: 1))
            }
        }
    }

    /// A `load()` whose answer left the gateway before a 410's reset but arrives after it is
    /// older than the list the reset installed: it is dropped, the list never goes back.
    @Test func anOlderAnswerNeverReplacesANewerList() async throws {
        let version = Mutex(1)
        let bodies = [
            1: upstreamItems(150, tag: "v1"), 2: upstreamItems(170, tag: "v2"), 3: upstreamItems(190, tag: "v3"),
        ]
        let clock = TestClock()
        try await withTestUpstream({ _ in .json(bodies[version.withLock { $0 }]!.body) }) { upstream in
            let yaml = clientYAML(
                upstream: upstream.baseURL,
                cache: "{ ttl: 10s, staleWhileRevalidate: 0s, staleIfError: 0s, snapshotRetention: 1m }")
            try await withClientGateway(yaml, now: clock.now) { objects, _ in
                // Unpinned first pages (load()) get their answers late; the reset's pinned one does not.
                let gate = AnswerGate(holds: { request in
                    let query = request.url?.query ?? ""
                    return query.contains("offset=0") && !query.contains("snapshot=")
                })
                let tested = PagedList<Item>(
                    endpoint: ListEndpoint(url: objects, transport: gate), pageSize: 20, prefetchMargin: 0)
                let opening = Task { try await tested.load() }
                #expect(await eventually { gate.waiting == 1 })
                gate.releaseAll()
                try await opening.value
                #expect(tested.count == 150)
                let log = ChangeLog.of(tested)
                defer { log.stop() }

                version.withLock { $0 = 2 }
                clock.advance(.seconds(11))
                let refresh = Task { try await tested.load() }  // answered from v2, held on its way
                #expect(await eventually { gate.waiting == 1 })
                version.withLock { $0 = 3 }
                clock.advance(.seconds(11))
                _ = try await PagedList<Item>(endpoint: ListEndpoint(url: objects), pageSize: 20).load()
                clock.advance(.seconds(120))  // v1's and v2's snapshots expire
                #expect(tested[130] == nil)  // page 6 of v1: 410, the reset installs v3
                #expect(await eventually { tested.count == 190 }, "\(log.all)")
                gate.releaseAll()
                try await refresh.value
                try await Task.sleep(for: .milliseconds(100))
                #expect(tested.count == 190)
                #expect(log.all.filter { if case .reset = $0 { true } else { false } } == [.reset(count: 190)])
                #expect(tested.statistics.resets == 1)
                #expect(try await tested.element(at: 130) == sortedByName(bodies[3]!.items)[130])
            }
        }
    }
}
