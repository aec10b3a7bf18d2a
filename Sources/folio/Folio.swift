import ArgumentParser
import FolioConfiguration
import FolioGateway
import Foundation
import Logging
import Metrics
import Prometheus

/// `folio`: serve, validate, demo or probe (README, "Running it"). Start-up errors are one line on
/// stderr and exit 1.
@main
struct Folio: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folio",
        abstract: "A pagination gateway: serves legacy JSON lists as fluent pages.",
        subcommands: [Serve.self, Validate.self, Demo.self, ProbeCommand.self]
    )

    /// ArgumentParser's own main, except that a mistake on the command line (an unknown
    /// option, a missing value) is a start-up error like any other: one line on stderr and
    /// exit 1 (docs/OPERATIONS.md, "Signals"), not the usage text and exit 64. `--help` is unchanged.
    static func main() async {
        var command: any ParsableCommand
        do {
            command = try await asyncParseAsRoot()
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            fail("folio: \(message(for: error)) (folio help lists the commands and options)")
        }
        do {
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// Prints one line to stderr and exits 1: never a crash trace for a start-up problem.
func fail(_ message: String) -> Never {
    BufferedLogWriter.standardOutput.flush()
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

/// The config at `path`, or its first problem on stderr and exit 1.
func loadOrFail(_ path: String) -> Configuration {
    do {
        return try ConfigurationLoader.load(file: path)
    } catch {
        fail(oneLine(error, path: path))
    }
}

/// Stops the start on what `buildApplication` would refuse in a loaded config (`startupProblems`:
/// the Redis PEM files), with the line `folio validate` prints for it.
func failOnStartupProblems(_ configuration: Configuration, file: String) {
    if let problem = startupProblems(configuration, file: file).first { fail(problem.description) }
}

/// A config's problems as the one clear line of a start-up error (docs/OPERATIONS.md, "Signals"): the first, and how
/// many more `folio validate` would list.
func oneLine(_ error: ConfigurationError, path: String) -> String {
    let problems = error.problems
    guard let first = problems.first else { return "\(path): invalid config" }
    guard problems.count > 1 else { return first.description }
    let more = problems.count - 1
    return first.description
        + " (and \(more) more problem\(more == 1 ? "" : "s"): folio validate --config \(path) lists them all)"
}

/// The config path: `--config`, then `$FOLIO_CONFIG`, then `config/folio.yaml`.
func configPath(_ option: String?) -> String {
    // An empty variable (`FOLIO_CONFIG=` in a manifest) names no file.
    let environment = ProcessInfo.processInfo.environment["FOLIO_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
    return option ?? environment ?? "config/folio.yaml"
}

/// The one registry `/metrics` renders. swift-metrics is bootstrapped onto it here, in the
/// executable only, so libraries that report through swift-metrics land in the same output.
func makeMetricsRegistry() -> PrometheusCollectorRegistry {
    let registry = PrometheusCollectorRegistry()
    MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    return registry
}

/// Runs until SIGTERM/SIGINT and exits with the status docs/OPERATIONS.md, "Signals", gives: 0 when drained,
/// 1 when requests were cut off or a listener could not start.
func runUntilDrained(_ service: ServerLifecycle) async throws -> Never {
    let termination: Termination
    do {
        termination = try await service.run()
    } catch {
        fail("folio: \(error)")
    }
    BufferedLogWriter.standardOutput.flush()
    exit(termination.exitCode)
}

func makeLogger(_ configuration: Configuration) -> Logger {
    let level = Logger.Level(rawValue: configuration.logging.level.rawValue) ?? .info
    LoggingSystem.bootstrap { label in JSONLogHandler(label: label, level: level) }
    var logger = Logger(label: "folio")
    logger.logLevel = level
    return logger
}
