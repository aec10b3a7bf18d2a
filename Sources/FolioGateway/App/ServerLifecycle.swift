import FolioConfiguration
import FolioEngine
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals

/// Runs a `FolioServer` in the order docs/OPERATIONS.md, "Signals", gives.
///
/// On SIGTERM/SIGINT (or `drain()`): `/readyz` fails at once; after `server.shutdownDelay` the
/// client listener stops accepting and its requests get `server.drainTimeout` to finish; then
/// the admin listener and the upstream clients stop. `run()` says whether any request was cut
/// off. On SIGHUP: `reload` with the `load` function given.
///
/// swift-service-lifecycle stops services in reverse order but cannot say whether its
/// escalation cut anything off, so the order within the drain (readiness, delay, listener,
/// deadline) is driven here, and the group only runs the listeners.
public final class ServerLifecycle: Sendable {
    let server: FolioServer
    let load: (@Sendable () throws(ConfigurationError) -> Configuration)?
    let drainSignals: [UnixSignal]
    let reloadSignals: [UnixSignal]
    private let drainRequested = Latch()

    /// - Parameters:
    ///   - load: reads the config again for a reload (nil: SIGHUP is logged and ignored).
    ///   - drainSignals: trapped to start the drain; `[]` in tests that call `drain()`.
    ///   - reloadSignals: trapped to reload; installed before the listeners start, since
    ///     SIGHUP's default action ends the process.
    public init(
        server: FolioServer,
        load: (@Sendable () throws(ConfigurationError) -> Configuration)? = nil,
        drainSignals: [UnixSignal] = [.sigterm, .sigint],
        reloadSignals: [UnixSignal] = [.sighup]
    ) {
        self.server = server
        self.load = load
        self.drainSignals = drainSignals
        self.reloadSignals = reloadSignals
    }

    /// Starts the drain, as SIGTERM does: `/readyz` fails before this returns (the rest of the
    /// drain runs in `run`'s task).
    public func drain() {
        server.readiness.startDraining()
        drainRequested.open()
    }

    /// Reloads the config, as SIGHUP does; nil when there is no `load` function.
    public func reload() async -> ReloadResult? {
        guard let load else { return nil }
        return await server.reload(load)
    }

    /// Serves until drained. Throws when a listener cannot start (e.g. the port is taken).
    /// Cancelling it stops everything at once and returns `.cutOff`.
    public func run() async throws -> Termination {
        // Signal handlers first, so no signal that arrives once the listeners are up is lost.
        let drainSignals = await UnixSignalsSequence(trapping: self.drainSignals)
        let reloadSignals = await UnixSignalsSequence(trapping: self.reloadSignals)
        let listenerClosed = Latch()
        let groupEnded = Latch()
        // Started first, so stopped last: spans of requests cut off by the drain still go out.
        var services: [any Service] = [server.tracing.service, UpstreamClientsService(current: server.current)]
        if let sharedStore = server.sharedStore { services.append(sharedStore) }
        if let admin = server.admin { services.append(admin) }
        services.append(WatchHubService(hub: server.gateway.watches))
        services.append(ReloadService(signals: reloadSignals, server: server, load: load))
        services.append(
            ListenerService(
                application: server.listener, address: server.gateway.configuration.server.listen,
                closed: listenerClosed))
        let group = ServiceGroup(configuration: .init(services: services, logger: server.logger))
        // Unstructured on purpose: when the drain deadline passes, a request may still be
        // waiting on work that ignores cancellation, and the process must be able to exit anyway.
        let running = Task {
            defer { groupEnded.open() }
            try await group.run()
        }
        return try await withTaskCancellationHandler {
            try await supervise(
                group: group, running: running, groupEnded: groupEnded, listenerClosed: listenerClosed,
                signals: drainSignals)
        } onCancel: {
            running.cancel()
        }
    }

    private func supervise(
        group: ServiceGroup, running: Task<Void, any Error>, groupEnded: Latch, listenerClosed: Latch,
        signals: UnixSignalsSequence
    ) async throws -> Termination {
        let drainRequested = self.drainRequested
        let trigger = await race(
            {
                for await signal in signals { return DrainTrigger.signal("\(signal)") }
                await Latch().wait()  // no signals trapped: wait for the others (or cancellation)
                return .ended
            },
            {
                await drainRequested.wait()
                return drainRequested.isOpen ? .requested : .ended
            },
            {
                await groupEnded.wait()
                return .ended
            })
        guard let reason = trigger.reason else {
            // The group stopped by itself: a listener failed (or we were cancelled).
            try await running.value
            return .drained
        }
        return await drain(
            reason: reason, group: group, running: running, groupEnded: groupEnded, listenerClosed: listenerClosed)
    }

    private func drain(
        reason: String, group: ServiceGroup, running: Task<Void, any Error>, groupEnded: Latch, listenerClosed: Latch
    ) async -> Termination {
        let settings = server.gateway.configuration.server
        let logger = server.gateway.logger
        server.readiness.startDraining()
        // Event streams end at once: their clients reconnect elsewhere (docs/API.md, "Watching
        // a list"), and a stream never holds the drain up.
        server.gateway.watches.endAll()
        logger.notice(
            "draining",
            metadata: [
                "reason": .string(reason),
                "shutdown_delay_ms": .stringConvertible(settings.shutdownDelay.milliseconds),
                "drain_timeout_ms": .stringConvertible(settings.drainTimeout.milliseconds),
            ])
        try? await Task.sleep(for: settings.shutdownDelay)
        await group.triggerGracefulShutdown()
        let inTime =
            await Deadline(after: settings.drainTimeout).wait { await listenerClosed.wait() } || listenerClosed.isOpen
        if inTime {
            let result = await running.result
            if case .failure(let error) = result {
                logger.error("shutdown error", metadata: ["error": "\(error)"])
            }
            logger.notice("drained")
            return .drained
        }
        if Task.isCancelled {
            logger.notice("drain cancelled", metadata: ["in_flight": .stringConvertible(server.current.inFlight)])
        } else {
            logger.error(
                "drain timeout: cutting off requests and answers still in flight",
                metadata: ["in_flight": .stringConvertible(server.current.inFlight)])
        }
        running.cancel()
        // Give cancellation a moment to close connections, but never wait on a request that
        // ignores it.
        _ = await Deadline(after: .seconds(1)).wait { await groupEnded.wait() }
        return .cutOff
    }
}

/// How `ServerLifecycle.run()` ended: the process exit status follows it.
public enum Termination: Sendable, Equatable {
    /// Every request finished, and every answer was sent, within `drainTimeout`.
    case drained
    /// `drainTimeout` passed with requests or answers still in flight; they were cut off.
    case cutOff

    /// 0 when drained, 1 when requests were cut off (docs/OPERATIONS.md, "Signals").
    public var exitCode: Int32 { self == .drained ? 0 : 1 }
}

private enum DrainTrigger: Sendable {
    case signal(String)
    case requested
    case ended

    var reason: String? {
        switch self {
        case .signal(let name): name
        case .requested: "requested"
        case .ended: nil
        }
    }
}

/// The client listener, reporting when it has stopped (all its connections closed).
struct ListenerService: Service {
    let application: Application<GatewayResponder>
    let address: ListenAddress
    let closed: Latch

    func run() async throws {
        defer { closed.open() }
        try await ListenerError.naming("server.listen", address) { try await application.run() }
    }
}
