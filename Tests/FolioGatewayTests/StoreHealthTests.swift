import FolioRedis
import FolioTestSupport
import Testing

@testable import FolioGateway

/// How the shared store's health logs what Redis refuses (docs/SHARED-STORE.md: no line per command).
@Suite struct StoreHealthTests {
    /// A Redis that refuses writes (READONLY after a failover, OOM) refuses every one of them:
    /// one line per operation and minute, saying how many refusals it stands for; the store
    /// stays available (its reads work).
    @Test func refusalsAreLoggedOncePerOperationAndInterval() throws {
        let log = CapturedLog()
        let clock = TestClock()
        let health = StoreHealth(logger: log.logger(), metrics: GatewayMetrics(), now: clock.now)
        let readOnly = RedisError.refused("READONLY You can't write against a read only replica.")
        for _ in 0..<5 { health.failed(.write, readOnly) }
        health.failed(.lock, readOnly)
        #expect(health.isAvailable)
        var lines = try log.messages("shared store answer refused")
        #expect(lines.map { $0["operation"] as? String } == ["write", "lock"])

        clock.advance(StoreHealth.refusalLogInterval)
        health.failed(.write, readOnly)
        lines = try log.messages("shared store answer refused")
        #expect(lines.map { $0["operation"] as? String } == ["write", "lock", "write"])
        #expect("\(lines.last?["refused_since_last_line"] ?? "none")" == "4")
    }
}
