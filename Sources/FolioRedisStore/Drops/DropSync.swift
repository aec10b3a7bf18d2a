import FolioEngine
import FolioRedis
import Logging

/// Keeps this replica's drops and Redis's in step (docs/SHARED-STORE.md, "Drops reach every
/// replica"): sends its own drops, sends again those Redis did not take, shortens the expiry of
/// what they removed, and after a lost events subscription finds the routes other replicas
/// may have dropped meanwhile. What it learns goes to the `DropLedger`.
final class DropSync: Sendable {
    let context: StoreContext
    /// Retention steps of drops that failed, for the probe to send again.
    let retires = UnfinishedRetires()

    init(context: StoreContext) {
        self.context = context
    }

    /// Sends a drop of `route` the ledger keeps (`DropLedger.made`): it stays pending, so no
    /// request loads the route from Redis, until Redis removed the route's newest pointers and
    /// the other replicas were told. While Redis is unavailable, or when it refuses, it waits
    /// for `replay`. `drop` carries the longest retention of the context.drops of `route` not yet taken.
    func send(_ route: String, _ drop: PendingDrops.Drop) async {
        guard context.health.isAvailable else { return context.drops.pending.failed(route, ticket: drop.ticket) }
        let retired: [RedisSnapshots.RetiredSnapshot]
        do {
            retired = try await sendDrop(route: route, retention: drop.retention)
        } catch {
            context.drops.pending.failed(route, ticket: drop.ticket)
            return context.health.failed(.drop, error)
        }
        context.drops.pending.sent(route, ticket: drop.ticket)
        await retire(
            .init(snapshots: retired, retention: drop.retention, atMilliseconds: context.clock.wallClock(), attempts: 0)
        )
    }

    /// Sends the context.drops Redis did not take (it was unavailable, or refused), then marks the
    /// store available and sends their retention steps. Returns whether all of them went; when
    /// Redis could not be reached the store stays unavailable (the next ping retries). A drop
    /// Redis answers but refuses (a read-only replica after a failover) stays pending, its
    /// route kept off Redis, and does not keep the store from the other routes; the probe
    /// sends it again every interval. Drops still on their way are their senders' to finish.
    /// They go in the order of their latest keep (their tickets).
    func replay() async -> Bool {
        var refused = false
        var retires: [UnfinishedRetires.Retire] = []
        for (route, drop) in context.drops.pending.failedDrops.sorted(by: { $0.value.ticket < $1.value.ticket }) {
            let retired: [RedisSnapshots.RetiredSnapshot]
            do {
                retired = try await sendDrop(route: route, retention: drop.retention)
            } catch {
                context.health.failed(.drop, error)
                guard error.isServerError else {
                    // The context.drops taken so far are done: their retention steps wait for the probe.
                    for retire in retires { _ = self.retires.keep(retire) }
                    return false
                }
                refused = true
                continue
            }
            context.drops.pending.sent(route, ticket: drop.ticket)
            retires.append(
                .init(
                    snapshots: retired, retention: drop.retention, atMilliseconds: context.clock.wallClock(),
                    attempts: 0))
        }
        context.health.succeeded()
        for retire in retires { await self.retire(retire) }
        return !refused
    }

    /// Sends the retention steps that failed again, in order, until one fails (the rest wait
    /// for the next probe, their attempts not counted).
    func retryRetires() async {
        var waiting = retires.takeAll()[...]
        while let next = waiting.popFirst() {
            guard await retire(next) else {
                for rest in waiting { _ = retires.keep(rest) }
                return
            }
        }
    }

    /// Reads each of `routes`' shared drop generation and keeps them as what vouches for the
    /// routes (`DropLedger.catchUp`). After a lost subscription (`lost`), returns the routes
    /// that may have missed a drop meanwhile (their generations moved); the caller context.drops their
    /// local copies.
    func catchUp(_ routes: [String], lost: Bool) async -> [String] {
        var shared: [String: Int64]?
        do {
            shared = Dictionary(
                uniqueKeysWithValues: zip(routes, try await context.redis.drops.dropGenerations(routes: routes)))
        } catch {
            context.health.failed(.read, error)
        }
        return context.drops.catchUp(shared: shared, routes: routes, lost: lost)
    }

    /// Removes `route`'s newest pointers in Redis and announces the drop (two round trips,
    /// however many cache keys the route has); returns the snapshots the pointers named.
    private func sendDrop(
        route: String, retention: Duration
    ) async throws(RedisError) -> [RedisSnapshots.RetiredSnapshot] {
        let retired = try await context.redis.drops.dropPointers(route: route)
        try await context.redis.publish(
            SharedStoreEvent(
                kind: .dropped, origin: context.origin, route: route, retentionMilliseconds: retention.milliseconds
            )
            .encoded)
        return retired
    }

    /// Keeps the snapshots a drop's pointers named for what is left of its retention (pinned
    /// links). Once the pointers are gone the drop is done, so this runs after it stopped being
    /// pending; one that fails is kept for `retryRetires`. A snapshot filled again since the
    /// drop (the same list) is spared. Returns whether it went.
    @discardableResult
    private func retire(_ retire: UnfinishedRetires.Retire) async -> Bool {
        guard !retire.snapshots.isEmpty else { return true }
        let elapsed = context.clock.elapsed(sinceMilliseconds: retire.atMilliseconds)
        do {
            try await context.redis.retire(
                retire.snapshots, retention: max(.zero, retire.retention - elapsed),
                atMilliseconds: retire.atMilliseconds, sparingRefilled: true)
            return true
        } catch {
            context.health.failed(.drop, error)
            var again = retire
            again.attempts += 1
            if !retires.keep(again) {
                context.logger.warning(
                    "gave up shortening the expiry of dropped snapshots",
                    metadata: ["snapshots": "\(retire.snapshots.count)", "error": "\(error)"])
            }
            return false
        }
    }
}
