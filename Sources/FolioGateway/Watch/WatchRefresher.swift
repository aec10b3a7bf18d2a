import FolioEngine

/// Keeps a watched key fresh (docs/API.md, "Watching a list"): when its newest snapshot's
/// freshness ends, it is refreshed as if a request had come (revalidated when it can), and a
/// changed list becomes an event for every watcher. One task per key, however many watch it;
/// with the shared store the fill lock makes it one refresh for all replicas, and the others'
/// watchers hear of the new snapshot through the store's `stored` events.
enum WatchRefresher {
    /// The shortest time between two refreshes of one key: a list that is never fresh (`ttl:
    /// 0s`, `no-cache`) is refreshed once a second, not in a loop.
    static let shortest = Duration.seconds(1)
    /// The longest wait after failed refreshes (doubling from `shortest`).
    static let longestBackoff = Duration.seconds(30)

    /// Starts refreshing `entry`: the first time `immediately` (a drop), or when its freshness
    /// ends.
    static func start(_ entry: WatchedKey, hub: WatchHub, immediately: Bool) -> Task<Void, Never> {
        Task {
            var due = immediately
            var backoff = Duration.zero
            while !Task.isCancelled {
                if !due {
                    guard let gateway = hub.gateway else { return }
                    let wait = max(entry.latest.freshUntil - gateway.cache.now(), shortest, backoff)
                    do { try await Task.sleep(for: wait) } catch { return }
                }
                due = false
                guard let gateway = hub.gateway, let route = gateway.route(named: entry.route) else { return }
                if let newest = await gateway.resolver.refreshed(entry.plan, route: route) {
                    backoff = .zero
                    entry.advance(to: newest)
                } else {
                    backoff = min(max(backoff * 2, shortest), longestBackoff)
                }
            }
        }
    }
}
