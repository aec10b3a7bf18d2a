import ArgumentParser
import FolioGateway
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the gateway.")

    @Option(name: .long, help: "Config file (default: $FOLIO_CONFIG, then config/folio.yaml).")
    var config: String?

    func run() async throws {
        let path = configPath(config)
        let configuration: Configuration
        do {
            configuration = try ConfigurationLoader.load(file: path)
        } catch {
            fail(error.problems.map(\.description).joined(separator: "\n"))
        }
        let logger = makeLogger(configuration)
        let server: FolioServer
        do {
            server = try buildApplication(configuration: configuration, logger: logger)
        } catch {
            fail("\(path): \(error)")
        }
        do {
            try await server.application.runService()
        } catch {
            fail("folio: \(error)")
        }
    }
}
