import Foundation
import Synchronization

/// Starts the tests' Foundation child processes (the built `folio`) one at a time, from every
/// test module that has any: with the suite in parallel, `Process.run()` crashed the test
/// process once (a `memmove` past a buffer inside it), and swift-corelibs-foundation does not
/// promise that two launches at once are safe. (`redis-server` is spawned with `posix_spawn`.)
public enum ChildProcess {
    private static let launching = Mutex(())

    public static func run(_ process: Process) throws {
        try launching.withLock { _ in try process.run() }
    }
}
