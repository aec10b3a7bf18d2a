import FolioEngine

/// How one replica's fill of a key relates to the other replicas' (a shared store; with
/// `store: memory` there is none and every fill runs).
protocol FillCoordination: Sendable {
    /// Runs `fill` when this replica is the one to fill `key` now; otherwise waits for the
    /// replica that is, and returns what it stored. `timeout` bounds the fill (the lock's
    /// expiry, should this replica die while holding it).
    func coordinate(
        _ key: CacheKey, timeout: Duration, fill: @escaping @Sendable () async throws -> FillResult
    ) async throws -> CoordinatedFill
}

/// What a coordinated fill gave.
enum CoordinatedFill: Sendable {
    /// This replica ran the fill.
    case filled(FillResult)
    /// The newest snapshot another replica stored, loaded from the shared store; `waited`
    /// when this replica waited for that replica's fill (`collapsed`).
    case shared(Snapshot, waited: Bool)
}
