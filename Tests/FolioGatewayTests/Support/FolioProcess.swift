import FolioTestSupport
import Foundation
import Synchronization
import Testing

/// The built `folio` executable run as a child process, as an orchestrator runs it: config in a
/// file, JSON log lines on stdout, signals to stop and reload it.
final class FolioProcess: Sendable {
    private let process: Process
    private let output = Mutex<(pending: [UInt8], lines: [String])>(([], []))
    private let errors = Mutex<[UInt8]>([])
    /// Set when stdout reached end of file (the process has exited and everything is read).
    private let outputEnded = Atomic<Bool>(false)
    let configFile: URL

    /// Runs `folio validate --config FILE` to its end: its exit status and what it wrote to
    /// stderr and stdout.
    static func validate(_ file: URL) throws -> (status: Int32, stderr: String, stdout: String) {
        try runToEnd(["validate", "--config", file.path])
    }

    /// Runs `folio ARGUMENTS` to its end (a command that exits by itself) in `directory`, with
    /// `environment` added to this process's: its exit status, and what it wrote to stderr and
    /// stdout (each a line or a few: neither pipe fills while the other is read).
    static func runToEnd(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil) throws
        -> (status: Int32, stderr: String, stdout: String)
    {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.environment = ownEnvironment(environment)
        if let directory { process.currentDirectoryURL = directory }
        let stderr = Pipe()
        let stdout = Pipe()
        process.standardError = stderr
        process.standardOutput = stdout
        try process.run()
        // A command expected to stop that serves instead (the test then fails on its status)
        // must not hang the test run.
        let watchdog = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, errors, output)
    }

    /// This process's environment without the `FOLIO_*` variables a developer's shell may hold
    /// (every command reads them), plus the test's own.
    static func ownEnvironment(_ environment: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FOLIO_") }.merging(environment) { $1 }
    }

    /// `.build/debug/folio`, beside the test bundle (`swift build` builds it before `swift test`),
    /// and only if it is newer than every object file it links: `swift test` alone recompiles
    /// changed sources for the test bundle without relinking the executable, which would then
    /// test old code.
    static func executable() throws -> URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("folio")
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [beside, root.appendingPathComponent(".build/debug/folio")]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw TestFailure("no built folio executable at \(candidates.map(\.path)); run `swift build` first")
        }
        let objects = ["folio", "FolioGateway", "FolioConfiguration", "FolioEngine", "FolioRedis", "FolioRedisStore"]
            .map {
                found.deletingLastPathComponent().appendingPathComponent("\($0).build")
            }
        if let built = modified(found), let (object, changed) = newestFile(in: objects), changed > built {
            throw TestFailure(
                "\(found.path) is older than \(object); run `swift build` first (swift test does not relink it)")
        }
        return found
    }

    private static func modified(_ url: URL) -> Date? {
        try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate
    }

    /// The most recently written object file in `directories`, and when.
    private static func newestFile(in directories: [URL]) -> (String, Date)? {
        var newest: (String, Date)?
        for directory in directories {
            let files =
                (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
            for file in files where file.pathExtension == "o" {
                guard let date = modified(file), date > newest?.1 ?? .distantPast else { continue }
                newest = (file.path, date)
            }
        }
        return newest
    }

    /// Writes `yaml` to a temporary file and starts `folio serve --config FILE`.
    init(yaml: String, environment: [String: String] = [:]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        configFile = directory.appendingPathComponent("folio.yaml")
        try yaml.write(to: configFile, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = try Self.executable()
        process.arguments = ["serve", "--config", configFile.path]
        process.environment = Self.ownEnvironment(environment)
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        stdout.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            output.withLock { state in
                state.pending.append(contentsOf: data)
                while let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) {
                    state.lines.append(String(decoding: state.pending[..<newline], as: UTF8.self))
                    state.pending.removeSubrange(...newline)
                }
            }
            if data.isEmpty {
                handle.readabilityHandler = nil
                outputEnded.store(true, ordering: .releasing)
            }
        }
        stderr.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            errors.withLock { $0.append(contentsOf: data) }
            if data.isEmpty { handle.readabilityHandler = nil }
        }
        try ChildProcess.run(process)
    }

    /// Replaces the config file (for a SIGHUP).
    func rewriteConfig(_ yaml: String) throws {
        try yaml.write(to: configFile, atomically: true, encoding: .utf8)
    }

    var lines: [String] { output.withLock { $0.lines } }
    var standardError: String { String(decoding: errors.withLock { $0 }, as: UTF8.self) }

    /// Stdout lines that are JSON objects (the log).
    var logObjects: [[String: Any]] {
        lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// Waits for a log line matching `predicate` after the first `skip` lines matched.
    @discardableResult
    func waitForLog(
        _ what: String, after skip: Int = 0, _ predicate: @escaping ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        var found: [String: Any]?
        try await waitUntil("log line: \(what) (stdout: \(lines.suffix(5)), stderr: \(standardError))") {
            let matches = logObjects.filter(predicate)
            if matches.count > skip { found = matches[skip] }
            return found != nil || outputEnded.load(ordering: .acquiring)
        }
        return try #require(found, "folio exited before logging \(what): \(standardError)")
    }

    func message(_ message: String, after skip: Int = 0) async throws {
        try await waitForLog(message, after: skip) { $0["message"] as? String == message }
    }

    /// The ports of the client and admin listeners, from their "listening" log lines.
    func ports() async throws -> (client: Int, admin: Int) {
        func port(_ listener: String) async throws -> Int {
            let line = try await waitForLog("listening \(listener)") {
                $0["message"] as? String == "listening" && $0["listener"] as? String == listener
            }
            return try #require(line["port"] as? Int)
        }
        return (try await port("client"), try await port("admin"))
    }

    /// A size of the process's `/proc/PID/status` in bytes: `VmRSS` (resident now), `VmHWM`
    /// (the peak resident so far).
    func memory(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            if let kilobytes = Int(line.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace).first ?? "") {
                return kilobytes << 10
            }
        }
        throw TestFailure("no \(field) in /proc/\(process.processIdentifier)/status")
    }

    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end and returns its exit status.
    func exitStatus() async throws -> Int32 {
        try await waitUntil("folio exits") { !process.isRunning }
        return process.terminationStatus
    }

    /// Ends the process if a test left it running.
    func stop() {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: configFile.deletingLastPathComponent())
    }
}
