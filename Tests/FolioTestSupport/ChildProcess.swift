import Foundation
import Synchronization

/// Starts the tests' Foundation child processes (the built `folio`) one at a time, from every
/// test module that has any: with the suite in parallel, `Process.run()` crashed the test
/// process once (a `memmove` past a buffer inside it), and swift-corelibs-foundation does not
/// promise that two launches at once are safe. (`redis-server` is spawned with `posix_spawn`.)
public enum ChildProcess {
    private static let lock = Mutex(())

    public static func run(_ process: Process) throws {
        try launching { try process.run() }
    }

    /// Runs `launch` while no other child process of the tests is being started (Foundation's
    /// or `posix_spawn`'s).
    public static func launching<T>(_ launch: () throws -> T) rethrows -> T {
        try lock.withLock { _ in try launch() }
    }

    /// Runs `process` to its end and returns its status and standard output. The blocking reads
    /// and the wait happen on a thread of their own: on 2 cores, a test blocking one of the two
    /// threads that run every test's tasks starved the test upstream the child was talking to.
    public static func output(of process: Process) async throws -> (status: Int32, stdout: Data) {
        let output = Pipe()
        process.standardOutput = output
        try run(process)
        let child = Unchecked(process)
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                child.value.waitUntilExit()
                continuation.resume(returning: (child.value.terminationStatus, data))
            }
        }
    }
}

/// A `Process` handed to the one thread that waits for it.
private final class Unchecked<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
