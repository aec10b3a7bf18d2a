import FolioEngine
import Foundation

/// This replica's monotonic clock against the wall clock replicas share (docs/SHARED-STORE.md,
/// "Freshness is shared"). Snapshots' instants are on the monotonic clock, which replicas do
/// not share: they cross replicas as wall-clock milliseconds (when the filler stored the list)
/// plus a lifetime, and each replica turns them back into instants of its own.
struct ReplicaClock: Sendable {
    /// This replica's monotonic clock.
    let now: @Sendable () -> ContinuousClock.Instant
    /// Wall-clock milliseconds.
    let wallClock: @Sendable () -> Int64

    init(
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        wallClock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    ) {
        self.now = now
        self.wallClock = wallClock
    }

    /// The instant of a wall-clock time on this replica's clock, whose now is `now` (never in
    /// the future: a filler whose clock runs ahead stored it now, not later).
    func instant(ofMilliseconds milliseconds: Int64, now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        now - elapsed(sinceMilliseconds: milliseconds)
    }

    /// How long ago a wall-clock time was (zero when it is ahead).
    func elapsed(sinceMilliseconds milliseconds: Int64) -> Duration {
        .milliseconds(max(0, wallClock() - milliseconds))
    }

    /// `snapshot` as replicas share it, with the route's `sort` (part of what the token hashes),
    /// this replica's clock reading `now`.
    func stored(_ snapshot: Snapshot, sort: SortSpec, now: ContinuousClock.Instant) -> StoredList {
        StoredList(
            list: snapshot.list, token: snapshot.token, sort: sort.texts,
            storedAtMilliseconds: wallClock() - (now - snapshot.storedAt).milliseconds,
            lifetimeMilliseconds: (snapshot.freshUntil - snapshot.storedAt).milliseconds, etag: snapshot.etag,
            lastModified: snapshot.lastModified, mustRevalidate: snapshot.mustRevalidate,
            initialAgeMilliseconds: snapshot.initialAge.milliseconds)
    }

    /// When a list stored at `milliseconds` was stored, on this replica's clock.
    func storedAt(_ milliseconds: Int64) -> ContinuousClock.Instant {
        instant(ofMilliseconds: milliseconds, now: now())
    }

    /// Until when a list stored with `freshness` is fresh, on this replica's clock.
    func freshUntil(_ freshness: StoredFreshness, storedAt: ContinuousClock.Instant? = nil) -> ContinuousClock.Instant {
        (storedAt ?? self.storedAt(freshness.storedAtMilliseconds)) + .milliseconds(freshness.lifetimeMilliseconds)
    }

    /// Whether a list stored with `freshness` is fresh now, as every replica sees it.
    func isFresh(_ freshness: StoredFreshness) -> Bool {
        freshness.storedAtMilliseconds + freshness.lifetimeMilliseconds > wallClock()
    }

    /// `held` with the freshness another replica stored for the same list.
    func renewed(_ held: Snapshot, by freshness: StoredFreshness) -> Snapshot {
        let storedAt = storedAt(freshness.storedAtMilliseconds)
        return held.renewed(
            storedAt: storedAt, freshUntil: freshUntil(freshness, storedAt: storedAt), etag: freshness.etag,
            lastModified: freshness.lastModified, mustRevalidate: freshness.mustRevalidate,
            initialAge: .milliseconds(freshness.initialAgeMilliseconds))
    }
}
