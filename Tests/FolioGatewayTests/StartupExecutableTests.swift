import Foundation
import Testing

/// Start-up errors of the built `folio` executable (docs/OPERATIONS.md, "Signals": "exit 1 with one clear line on
/// stderr"), and where it looks for its config.
@Suite("Start-up errors (executable)")
struct StartupExecutableTests {
    /// A config with several problems: `serve` names the first and how many more `validate`
    /// lists, on one line; `validate` lists them all, one a line.
    @Test func anInvalidConfigStopsServeWithOneLine() throws {
        let yaml =
            "server:\n  listen: 127.0.0.1:0\n  bogus: 1\nroutes:\n  - name: a\n    path: /a\n    upstreamx: http://h/a\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let serve = try FolioProcess.runToEnd(["serve", "--config", file.path])
        #expect(serve.status == 1)
        let validate = try FolioProcess.validate(file)
        let problems = validate.stderr.split(separator: "\n")
        #expect(validate.status == 1 && problems.count == 3, "\(validate.stderr)")
        #expect(
            serve.stderr
                == "\(problems[0]) (and 2 more problems: folio validate --config \(file.path) lists them all)\n")
    }

    /// A mistake on the command line is a start-up error too; `--help` still prints the
    /// usage and exits 0.
    @Test(arguments: [
        ["serve", "--bogus"], ["validate", "config/folio.yaml"], ["demo", "--port", "80x"], ["nothing"],
    ])
    func aCommandLineMistakeIsOneLineAndExitOne(_ arguments: [String]) throws {
        let run = try FolioProcess.runToEnd(arguments)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("folio: ") && run.stderr.filter { $0 == "\n" }.count == 1, "\(run.stderr)")
        #expect(run.stderr.hasSuffix("(folio help lists the commands and options)\n"))
        let help = try FolioProcess.runToEnd(["serve", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--config"))
    }

    @Test func demoRefusesAPortOutOfRange() throws {
        let demo = try FolioProcess.runToEnd(["demo", "--port", "70000"])
        #expect(demo.status == 1)
        #expect(demo.stderr == "demo: --port must be 0 to 65535, got 70000\n")
    }

    /// The demo reads the `FOLIO_*` variables as `serve` does (here `FOLIO_LOG_LEVEL`, whose
    /// bad value stops it like a bad `logging.level`).
    @Test func demoReadsTheEnvironmentAsServeDoes() throws {
        let demo = try FolioProcess.runToEnd(["demo", "--port", "0"], environment: ["FOLIO_LOG_LEVEL": "loud"])
        #expect(demo.status == 1)
        #expect(demo.stderr.contains("FOLIO_LOG_LEVEL"), "\(demo.stderr)")
    }

    /// `FOLIO_CONFIG=` (set, empty, as a manifest may leave it) names no file: the default
    /// `config/folio.yaml` is read.
    @Test func anEmptyFolioConfigVariableFallsBackToTheDefaultFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("config"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try ConfigFixture.minimal.write(
            to: directory.appendingPathComponent("config/folio.yaml"), atomically: true, encoding: .utf8)
        let run = try FolioProcess.runToEnd(["validate"], environment: ["FOLIO_CONFIG": ""], directory: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "ok: 1 routes\n")
    }

    @Test func folioValidateRejectsAnUnknownDialect() throws {
        let yaml = "defaults:\n  dialect: folio\n" + ConfigFixture.minimal + "\n    dialect: graphql"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dialect-\(UUID().uuidString).yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output, _) = try FolioProcess.validate(file)
        #expect(status == 1)
        let at = ConfigFixture.position(of: "dialect: graphql", in: yaml)
        #expect(
            output
                == "\(file.path):\(at.line):\(at.column): routes[0].dialect: unknown dialect 'graphql'; "
                + "expected one of folio, drf, hal, jsonserver, simplerest, jsonapi, odata, laravel, strapi, stripe\n")
    }
}
