import ServiceLifecycle

/// Shuts upstream clients down: a client replaced by a reload once the requests still using it
/// are done, and every client when the service group stops (AsyncHTTPClient asserts when a
/// client goes away without `shutdown`).
///
/// Placed first in the group so it stops last, after the listeners have drained.
struct UpstreamClientsService: Service {
    let current: CurrentGateway
    /// How often retired clients are checked for remaining requests.
    var sweepInterval: Duration = .milliseconds(500)

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: sweepInterval)
                await Self.shutDown(current.takeRetiredClients())
            }
        }
        await Self.shutDown(current.takeRetiredClients(all: true) + [current.gateway.upstream])
    }

    static func shutDown(_ clients: [UpstreamClient]) async {
        for client in clients {
            try? await client.shutdown()
        }
    }
}
