import FolioRedis
import FolioTestSupport
import Testing

@testable import FolioRedisStore

/// How the shared store's health logs what Redis refuses (docs/SHARED-STORE.md, "Redis down,
/// slow or refusing": no line per command).
@Suite struct StoreHealthTests {
    /// A Redis that refuses writes (READONLY after a failover, OOM) refuses every one of them:
    /// one line per operation and minute, saying how many refusals it stands for; the store
    /// stays available (its reads work).
    @Test func refusalsAreLoggedOncePerOperationAndInterval() {
        let log = CapturedLog()
        let clock = TestClock()
        let health = StoreHealth(logger: log.logger(), metrics: UncountedMetrics(), now: clock.now)
        let readOnly = RedisError.refused("READONLY You can't write against a read only replica.")
        for _ in 0..<5 { health.failed(.write, readOnly) }
        health.failed(.lock, readOnly)
        #expect(health.isAvailable)
        var lines = log.messages("shared store answer refused")
        #expect(lines.map { $0.metadata["operation"]?.description } == ["write", "lock"])

        clock.advance(StoreHealth.refusalLogInterval)
        health.failed(.write, readOnly)
        lines = log.messages("shared store answer refused")
        #expect(lines.map { $0.metadata["operation"]?.description } == ["write", "lock", "write"])
        #expect("\(lines.last?.metadata["refused_since_last_line"] ?? "none")" == "4")
    }
}
