import ArgumentParser
import FolioGateway
import Foundation

struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Fetch each route's upstream once, as a fill would, and report what Folio sees.",
        discussion: """
            Status, items, bytes, time, freshness and why, validators, pages crawled, and the \
            problem a fill would hit. Nothing is cached or served. Exit 0 when every probed \
            route would fill, 1 otherwise.
            """)

    @Option(name: .long, help: "Config file (default: $FOLIO_CONFIG, then config/folio.yaml).")
    var config: String?

    @Option(name: .customLong("param"), help: "A value for an upstream placeholder, NAME=VALUE (repeatable).")
    var parameters: [String] = []

    @Flag(name: .long, help: "Print the reports as JSON (an array, one object per route).")
    var json = false

    @Argument(help: "Probe only this route (by name).")
    var route: String?

    func run() async throws {
        let path = configPath(config)
        let configuration = loadOrFail(path)
        var values: [String: String] = [:]
        for parameter in parameters {
            guard let equals = parameter.firstIndex(of: "="), equals != parameter.startIndex else {
                fail("folio: --param wants NAME=VALUE, got '\(parameter)'")
            }
            values[String(parameter[..<equals])] = String(parameter[parameter.index(after: equals)...])
        }
        let reports: [ProbeReport]
        do {
            reports = try await Probe.run(
                configuration, routes: route.map { [$0] } ?? [], parameters: values,
                progress: { route, page, exchange in
                    // Only crawls take long enough to need it.
                    guard configuration.routes.first(where: { $0.name == route })?.upstreamPaging != nil else { return }
                    let line =
                        "\(route): page \(page) -> \(exchange.head.status), \(exchange.bodyBytes.map { "\($0) bytes" } ?? "body failed")\n"
                    FileHandle.standardError.write(Data(line.utf8))
                })
        } catch {
            fail("folio: \(error)")
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(reports), as: UTF8.self))
        } else {
            print(reports.map(\.text).joined(separator: "\n\n"))
        }
        if !reports.allSatisfy(\.ok) { throw ExitCode(1) }
    }
}
