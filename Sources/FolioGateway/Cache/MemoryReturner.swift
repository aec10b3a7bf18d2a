import CAllocator
import Synchronization

/// Gives the heap that evicted snapshots and finished fills freed back to the OS, at most once
/// per `interval`.
///
/// Lists below glibc's mmap threshold (256 KiB, `tuneAllocator`) live in the heap; once evicted
/// their space stays resident, fragmented between live blocks, so under key churn resident
/// memory rose 30–35 MiB above `cache.maxBytes` (issue 12; BENCHMARKS.md "Key churn"). The
/// first eviction after a trim schedules the next one `interval` later; evictions meanwhile
/// ride along. The trim runs off the request path.
final class MemoryReturner: Sendable {
    /// The process's one returner: malloc's arenas are process-wide, shared by every gateway a
    /// reload creates.
    static let shared = MemoryReturner(
        schedule: { work in
            Task.detached(priority: .background) {
                try? await Task.sleep(for: .seconds(1))
                work()
            }
        },
        trim: { _ = folio_return_free_memory() })

    private let pending = Mutex(false)
    private let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let trim: @Sendable () -> Void

    /// `schedule` runs its closure once, later; `trim` returns the memory.
    init(
        schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        trim: @escaping @Sendable () -> Void
    ) {
        self.schedule = schedule
        self.trim = trim
    }

    /// Memory was freed in bulk (snapshots evicted, a fill's download buffers): a trim follows
    /// unless one is already scheduled.
    func freed() {
        let first = pending.withLock { pending in
            defer { pending = true }
            return !pending
        }
        guard first else { return }
        schedule { [self] in
            pending.withLock { $0 = false }
            trim()
        }
    }
}
