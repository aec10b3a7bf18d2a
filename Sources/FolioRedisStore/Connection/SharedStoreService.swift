import FolioRedis
import ServiceLifecycle

/// Runs what a shared store needs besides requests: the events subscription (other replicas'
/// drops and finished fills) and, while Redis is unavailable, a ping every `probeInterval` that
/// finds it back (and sends the drops made meanwhile before requests use it again). Made with
/// its store (`SharedSnapshotStore.connect`), and run in the server's `ServiceGroup`.
public struct SharedStoreService: Service {
    let store: SharedSnapshotStore
    let subscriber: RedisSubscriber
    var probeInterval: Duration = .seconds(1)

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await listen() }
                group.addTask { await probe() }
                await group.waitForAll()
            }
        }
        await store.redis.client.close()
    }

    private func listen() async {
        let store = self.store
        await subscriber.run(
            onMessage: { payload in store.receive(payload) },
            onState: { state in
                switch state {
                case .success: await store.resubscribed()
                case .failure(let error): store.subscriptionFailed(error)
                }
            })
    }

    private func probe() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: probeInterval)
            guard !store.health.isAvailable else {
                // Drops Redis refused (an error answer leaves the store available), and
                // retention steps of drops that failed.
                if !store.drops.pending.failedDrops.isEmpty { _ = await store.dropSync.replay() }
                if store.health.isAvailable, !store.dropSync.retires.isEmpty { await store.dropSync.retryRetires() }
                continue
            }
            do {
                try await store.redis.client.send(["PING"])
            } catch {
                store.health.failed(.ping, error)
                continue
            }
            // Drops made during the outage go first (their routes are not loaded from Redis
            // until they are in); the replay marks the store available once it sent them all.
            _ = await store.dropSync.replay()
        }
    }
}
