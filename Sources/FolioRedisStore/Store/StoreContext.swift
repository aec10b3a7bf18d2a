import Logging

/// What every part of the shared store works with (docs/DESIGN.md, "Snapshots and the
/// store"): Redis and whether it is usable now, the log, this replica's name and clock, and
/// what it knows of its routes' drops.
struct StoreContext: Sendable {
    let redis: RedisSnapshots
    let health: StoreHealth
    let logger: Logger
    /// This replica, in lock owners and events.
    let origin: String
    let clock: ReplicaClock
    let drops: DropLedger
}
