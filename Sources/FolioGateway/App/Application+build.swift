import AsyncHTTPClient
import FolioEngine
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// Everything `folio serve` runs, assembled in one place so tests run the real thing.
public struct FolioServer: Sendable {
    /// The client-facing application (the gateway).
    public let application: Application<GatewayResponder>
    /// The gateway behind it (cache, routes), for admin endpoints and tests.
    public let gateway: Gateway
    public let upstream: UpstreamClient
    public let readiness: Readiness
}

/// Builds the gateway application for `configuration`.
///
/// - Parameters:
///   - onListening: called with the bound port of the client listener.
///   - onAdminListening: called with the bound port of the admin listener (when enabled).
public func buildApplication(
    configuration: Configuration,
    logger: Logger,
    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
    onListening: @escaping @Sendable (Int) async -> Void = { _ in },
    onAdminListening: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> FolioServer {
    let upstream = UpstreamClient(settings: Gateway.upstreamSettings(for: configuration))
    let gateway: Gateway
    do {
        gateway = try Gateway(configuration: configuration, upstream: upstream, logger: logger, now: now)
    } catch {
        Task { try? await upstream.shutdown() }
        throw error
    }
    let readiness = Readiness()
    let limits = configuration.limits
    // The parser's own caps sit above Folio's limits, so breaches get Folio's 414/431.
    let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
        maxHeaderFieldSize: max(80 * 1024, limits.maxURLBytes * 2, limits.maxHeaderBytes * 2),
        maxHeaderListSize: max(80 * 1024, limits.maxHeaderBytes * 2),
        maxHeaderFieldCount: max(1000, limits.maxHeaderCount * 2)
    )
    let idle = TimeAmount(configuration.server.idleTimeout)
    let http1 = HTTP1Channel.Configuration(idleTimeout: idle, httpDecoderConfiguration: decoder)
    var application = Application(
        responder: GatewayResponder(gateway: gateway),
        server: .http1(configuration: http1),
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.server.listen.host, port: configuration.server.listen.port),
            serverName: nil
        ),
        onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
        logger: logger
    )
    if let admin = configuration.server.admin {
        let adminApp = AdminEndpoints.application(
            address: admin, gateway: gateway, readiness: readiness, logger: logger,
            onServerRunning: onAdminListening)
        application.addServices(adminApp)
    }
    application.addServices(UpstreamClientService(client: upstream))
    return FolioServer(application: application, gateway: gateway, upstream: upstream, readiness: readiness)
}

/// Shuts the upstream client down when the service group stops.
struct UpstreamClientService: Service {
    let client: UpstreamClient

    func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
