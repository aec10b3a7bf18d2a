import Foundation

/// Names threads of Folio's own (fill workers, the log writer) as `top -H`, `perf` and `/proc`
/// show them.
public enum ThreadName {
    /// Names the calling thread (Linux: at most 15 bytes, through `/proc/thread-self/comm`).
    ///
    /// Call it from inside the new thread, which otherwise keeps its creator's name, and not
    /// through Foundation: swift-corelibs-foundation's `Thread.name` setter renames the OS thread
    /// only once it knows it runs on it, which it learns after `pthread_create` returns in the
    /// creating thread, a race the new thread can win (then only the name is stored).
    public static func setCurrent(_ name: String) {
        #if canImport(Glibc)
            let file = open("/proc/thread-self/comm", O_WRONLY)
            guard file >= 0 else { return }
            _ = Array(name.utf8.prefix(15)).withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
            close(file)
        #else
            Thread.current.name = name
        #endif
    }
}
