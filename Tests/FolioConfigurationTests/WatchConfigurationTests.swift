import FolioConfiguration
import FolioTestSupport
import Testing

/// `server.watch` (docs/CONFIG.md, "server"): the event streams' limit and heartbeat.
@Suite("server.watch")
struct WatchConfigurationTests {
    @Test("defaults: 10000 streams, a heartbeat every 15 s")
    func defaults() throws {
        let config = try ConfigurationLoader.parse(yaml: ConfigFixture.minimal, file: "f")
        #expect(config.server.watch == Configuration.Watch(maxWatchers: 10_000, heartbeat: .seconds(15)))
    }

    @Test("both keys read")
    func values() throws {
        let yaml = "server:\n  watch:\n    maxWatchers: 3\n    heartbeat: 250ms\n" + ConfigFixture.minimal
        let config = try ConfigurationLoader.parse(yaml: yaml, file: "f")
        #expect(config.server.watch.maxWatchers == 3)
        #expect(config.server.watch.heartbeat == .milliseconds(250))
    }

    static let cases: [ValidationCase] = [
        .init(
            yaml: "server:\n  watch:\n    maxWatchers: -1\n" + ConfigFixture.minimal, path: "server.watch.maxWatchers",
            message: "must be 0 or more", at: "maxWatchers"),
        .init(
            yaml: "server:\n  watch:\n    heartbeat: 0s\n" + ConfigFixture.minimal, path: "server.watch.heartbeat",
            message: "must be greater than 0", at: "heartbeat"),
        .init(
            yaml: "server:\n  watch:\n    maxWatcher: 5\n" + ConfigFixture.minimal, path: "server.watch.maxWatcher",
            message: "unknown key 'maxWatcher'", at: "maxWatcher"),
    ]

    @Test("each problem is reported once, at the key", arguments: cases)
    func rule(_ c: ValidationCase) {
        c.expectReportedOnce()
    }
}
