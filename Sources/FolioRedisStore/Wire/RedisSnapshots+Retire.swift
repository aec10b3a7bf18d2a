import FolioEngine
import FolioRedis

/// A snapshot no pointer names any more kept for its retention only (pinned links), or
/// deleted: after a newer list of its key (`write`), a drop (`RedisRouteDrops.drop`), or a
/// failed check.
extension RedisSnapshots {
    /// Keeps `key`'s snapshot with `token` for `retention` only (zero: deletes it), marking
    /// when it was superseded.
    public func supersede(
        _ key: CacheKey, token: String, retention: Duration, atMilliseconds now: Int64
    ) async throws(RedisError) {
        try await retire(
            [RetiredSnapshot(route: key.route, keyHash: RedisSnapshotKeys.hash(key), token: token)],
            retention: retention, atMilliseconds: now)
    }

    /// A snapshot no newest pointer names any more: its route, its cache key's hash and its token.
    public struct RetiredSnapshot: Sendable, Equatable {
        public var route: String
        public var keyHash: String
        public var token: String
    }

    /// Keeps each of `snapshots` for `retention` only (zero: deletes them), marking when they
    /// were superseded. Two round trips per `snapshotsPerBatch` of them: their headers, then
    /// their expiries. With `sparingRefilled`, a snapshot filled again since the drop is left
    /// alone: its key's newest pointer names it again, or its metadata says it was stored after
    /// `now` (it may have been superseded again since, with a retention of its own). A drop's
    /// retire runs after the drop is taken, and may be retried later, when a refill of the same
    /// list (the same token) may have made it newest again.
    public func retire(
        _ snapshots: [RetiredSnapshot], retention: Duration, atMilliseconds now: Int64, sparingRefilled: Bool = false
    ) async throws(RedisError) {
        let ms = String(Self.milliseconds(retention))
        for first in stride(from: 0, to: snapshots.count, by: Self.snapshotsPerBatch) {
            let batch = snapshots[first..<min(first + Self.snapshotsPerBatch, snapshots.count)]
            var reads: [[[UInt8]]] = []
            for snapshot in batch {
                reads.append(["GET", keys.meta(snapshot.keyHash, token: snapshot.token)].bytes)
                if sparingRefilled {
                    reads.append(["GET", keys.newest(route: snapshot.route, keyHash: snapshot.keyHash)].bytes)
                }
            }
            let replies = try await client.pipeline(reads)
            try Self.check(replies)
            guard replies.count == reads.count else { throw RedisError.unexpectedReply("\(replies.count) replies") }
            var commands: [[[UInt8]]] = []
            let looks = sparingRefilled ? 2 : 1
            for (index, snapshot) in batch.enumerated() {
                let (owner, token) = (snapshot.keyHash, snapshot.token)
                if sparingRefilled, replies[index * looks + 1].string == token { continue }
                guard let held = Self.header(replies[index * looks], token: token) else { continue }
                if sparingRefilled, held.storedAtMilliseconds > now { continue }
                let names =
                    (0..<held.parts).map { keys.part(owner, token: token, index: $0) } + [
                        keys.meta(owner, token: token)
                    ]
                if retention > .zero {
                    commands += names.map { ["PEXPIRE", $0, ms].bytes }
                    commands.append(["SET", keys.superseded(owner, token: token), String(now), "PX", ms].bytes)
                } else {
                    commands.append((["DEL"] + names + [keys.superseded(owner, token: token)]).bytes)
                }
            }
            if !commands.isEmpty { try Self.check(try await client.pipeline(commands)) }
        }
    }

    /// Snapshots `retire` handles per two round trips: a few hundred commands each way (a
    /// snapshot has a part per 4 MiB of its list, so a batch of large lists sends more).
    static let snapshotsPerBatch = 256
}
