import ArgumentParser
import FolioConfiguration
import FolioGateway
import Foundation

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check a config file without serving.")

    @Option(name: .long, help: "Config file (default: $FOLIO_CONFIG, then config/folio.yaml).")
    var config: String?

    func run() throws {
        let path = configPath(config)
        let configuration: Configuration
        do {
            configuration = try ConfigurationLoader.load(file: path)
        } catch {
            for problem in error.problems {
                FileHandle.standardError.write(Data((problem.description + "\n").utf8))
            }
            throw ExitCode(1)
        }
        // What `serve` would refuse at start beyond the file's own checks.
        let problems = startupProblems(configuration, file: path)
        guard problems.isEmpty else {
            for problem in problems { FileHandle.standardError.write(Data((problem.description + "\n").utf8)) }
            throw ExitCode(1)
        }
        // docs/CONFIG.md, "Grammar and validation": `ok: 1 routes` keeps the plural, for scripts that parse the line.
        print("ok: \(configuration.routes.count) routes")
    }
}
