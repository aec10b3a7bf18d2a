import Dispatch
import Synchronization

/// Builds of one kind, each done by one caller however many ask at once: the first caller for a
/// key builds, the others wait for it and read what it kept. A `?q=` right after a fill so
/// waits for the fill's background fold of a column instead of folding it a second time beside
/// it (docs/DESIGN.md, "Search"). Waiting blocks the thread: callers are fill workers.
final class OnceEach<Key: Hashable & Sendable>: Sendable {
    private let building = Mutex<[Key: DispatchGroup]>([:])

    /// Whether a caller is building `key` now.
    func isBuilding(_ key: Key) -> Bool {
        building.withLock { $0[key] != nil }
    }

    /// `cached()` when it has the value; otherwise `build()` (which keeps what it built where
    /// `cached` finds it), unless another caller is building `key`: then, once it is done,
    /// `cached()` again.
    func value<T>(_ key: Key, cached: () -> T?, build: () -> T) -> T {
        while true {
            if let value = cached() { return value }
            let (group, mine) = building.withLock { building -> (DispatchGroup, Bool) in
                if let group = building[key] { return (group, false) }
                let group = DispatchGroup()
                group.enter()
                building[key] = group
                return (group, true)
            }
            guard mine else {
                group.wait()
                continue
            }
            defer {
                building.withLock { $0[key] = nil }
                group.leave()
            }
            // Built and kept between the first look and the claim.
            if let value = cached() { return value }
            return build()
        }
    }
}
