import AsyncHTTPClient
import FolioConfiguration
import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioGateway

/// `folio demo` carries its config in the executable; `config/demo.yaml` is the readable copy.
@Suite struct DemoConfigurationTests {
    @Test func readableCopyEqualsTheBuiltInConfig() throws {
        let path = ConfigFixture.packageRoot.appendingPathComponent(DemoConfiguration.file).path
        let file = try String(contentsOfFile: path, encoding: .utf8)
        #expect(file == DemoConfiguration.yaml, "config/demo.yaml and DemoConfiguration.yaml differ: edit both")
        let configuration = try ConfigurationLoader.parse(yaml: DemoConfiguration.yaml, file: DemoConfiguration.file)
        #expect(
            configuration.routes.map(\.name) == [
                "objects", "paged-objects", "drf-objects", "hal-objects", "jsonserver-objects", "simplerest-objects",
                "laravel-objects", "jsonapi-objects", "odata-objects", "strapi-objects", "stripe-objects",
            ])
    }

    /// The built executable serves the demo from a directory with no `config/` in it.
    @Test func demoRunsFromAnyDirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = try FolioProcess.executable()
        process.arguments = ["demo", "--port", "0"]
        process.environment = FolioProcess.ownEnvironment([:])
        process.currentDirectoryURL = directory
        let output = Mutex("")
        let errors = Mutex("")
        let pipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = pipe
        process.standardError = errorPipe
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            output.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        errorPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            errors.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try ChildProcess.run(process)
        defer { if process.isRunning { process.terminate() } }

        // The tour names the gateway's bound port: `curl -s 'http://127.0.0.1:PORT/objects?…`.
        let found = await eventually(timeout: .seconds(60)) {
            output.withLock { $0.contains("Folio demo is running") && $0.contains("/paged-objects?") }
        }
        let text = output.withLock { $0 }
        #expect(found, "demo did not start: \(text)")
        let regex = try Regex(#"curl -s 'http://127\.0\.0\.1:(\d+)/objects\?pageSize=5'"#)
        let match = try #require(text.firstMatch(of: regex), "no gateway URL in: \(text)")
        let port = try #require(match.output[1].substring)
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let answer = try await http.answer("http://127.0.0.1:\(port)/objects?pageSize=2")
        try await http.shutdown()
        #expect(answer.status == 200)
        #expect(answer.text.contains("\"totalCount\":\(DemoData.count)"))
        process.interrupt()
        process.waitUntilExit()
        // Logs are JSON lines on stdout (docs/OPERATIONS.md, "Logs"), the built-in upstream's too: nothing on stderr.
        #expect(errors.withLock { $0 }.isEmpty, "\(errors.withLock { $0 })")
    }
}
