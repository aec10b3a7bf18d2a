import FolioEngine

/// What a fill coordinated through the key's lock gave (`FillLock.coordinate`).
public enum LockedFill<Outcome: FillOutcome>: Sendable {
    /// This replica ran the fill.
    case filled(Outcome)
    /// The newest snapshot another replica stored, loaded from Redis; `waited` when this
    /// replica waited for that replica's fill.
    case shared(Snapshot, waited: Bool)
    /// The fill of the replica this one waited for failed, as it recorded.
    case failedElsewhere(FillFailure)
}

/// What a fill gives, as the replicas that waited for it learn it.
public protocol FillOutcome: Sendable {
    /// What this outcome of a fill that held its key's lock tells the replicas that waited.
    var end: FillEnd { get }
    /// What a fill that threw `error` tells them.
    static func failure(_ error: any Error) -> FillFailure
}

/// What the outcome of a fill that held its key's lock tells the replicas that waited for it.
public enum FillEnd: Sendable, Equatable {
    /// It stored a list they may load, or nothing (they look again, and one takes the lock).
    case shareable
    /// Its answer may not be shared (uncacheable, or not stored): each waiter fills for itself,
    /// at once.
    case unshared
    /// It failed: its waiters answer with this failure.
    case failed(FillFailure)
}
