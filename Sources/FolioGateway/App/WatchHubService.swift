import ServiceLifecycle

/// Ends every event stream when the server shuts down (docs/API.md, "Watching a list"), so an
/// open stream never holds the listener's graceful shutdown up.
struct WatchHubService: Service {
    let hub: WatchHub

    func run() async throws {
        try? await gracefulShutdown()
        hub.endAll()
    }
}
