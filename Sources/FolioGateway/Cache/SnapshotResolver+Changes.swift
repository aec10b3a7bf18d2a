import FolioEngine

/// The two snapshots a request for changes is answered from (docs/API.md, "Changes between
/// snapshots").
enum ChangesSource: Sendable {
    /// The snapshot the token names and the newest one (the same one when the token is the
    /// newest), with how the cache answered for the newest.
    case pair(old: Snapshot, new: Snapshot, CacheOutcome, age: Int?)
    /// The token is not held (unknown, or no longer retained): 410 with the current list's
    /// first link.
    case gone(current: Snapshot, CacheOutcome)
    /// No newest snapshot to answer from: what a page request would get instead (an upstream
    /// error passed through, a failed fill).
    case unanswered(Resolution)
}

extension SnapshotResolver {
    /// Finds the newest snapshot as a page request would (a stale list is refreshed, so polling
    /// sees new content), then the snapshot `token` names: the newest itself, a retained one,
    /// or, with the shared store, one any replica stored (loaded from Redis). `check` runs on
    /// the newest before the token is looked up (its ids: a list without ids is 409 whatever
    /// the token).
    func resolveChanges(
        _ plan: FillPlan, since token: String, route: CompiledRoute,
        check: (Snapshot) async throws(FolioError) -> Void = { _ in }
    ) async throws(FolioError) -> ChangesSource {
        let newest = await resolve(plan, token: nil, route: route)
        guard case .served(let new, let outcome, let age) = newest else { return .unanswered(newest) }
        try await check(new)
        if token == new.token { return .pair(old: new, new: new, outcome, age: age) }
        guard let key = plan.key else { return .gone(current: new, outcome) }
        if let retained = await cache.retained(key, token: token) {
            return .pair(old: retained.snapshot, new: new, outcome, age: age)
        }
        // An uncacheable refill leaves the token's list current.
        if let held = await cache.current(key), held.token == token {
            return .pair(old: held, new: new, outcome, age: age)
        }
        return .gone(current: new, outcome)
    }
}
