import ArgumentParser
import FolioConfiguration
import FolioGateway
import Foundation
import Logging

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the gateway.")

    @Option(name: .long, help: "Config file (default: $FOLIO_CONFIG, then config/folio.yaml).")
    var config: String?

    func run() async throws {
        tuneAllocator()
        let path = configPath(config)
        let configuration = loadOrFail(path)
        failOnStartupProblems(configuration, file: path)
        let logger = makeLogger(configuration)
        let server: FolioServer
        do {
            server = try buildApplication(configuration: configuration, logger: logger, metrics: makeMetricsRegistry())
        } catch {
            fail("\(path): \(error)")
        }
        let service = ServerLifecycle(
            server: server,
            load: { () throws(ConfigurationError) in
                try ConfigurationLoader.load(file: path)
            })
        try await runUntilDrained(service)
    }
}
