import Crypto
import FolioConfiguration
import FolioEngine
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// The admin listener: `/livez`, `/readyz`, `/metrics`, `POST /purge?route=NAME`, the admin
/// page (`/`, `/ui`) and its `/state` (docs/OPERATIONS.md, "Ports and probes", "Admin page").
///
/// A separate listener so probes and scrapes keep working while the client listener drains.
/// Every endpoint reads the current gateway, so a reload (new `adminToken`, new routes) applies.
enum AdminEndpoints {
    /// Prometheus text exposition format.
    static let metricsContentType = "text/plain; version=0.0.4; charset=utf-8"

    /// `idleTimeout` is the client listener's (`server.idleTimeout`, docs/API.md "Connections").
    static func application(
        address: ListenAddress, current: CurrentGateway, readiness: Readiness, idleTimeout: Duration, logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol {
        let router = Router(context: GatewayContext.self)
        // What the client listener refuses before any route (RFC 9112 3.2 and 6.1: no `Host`
        // in HTTP/1.1, two of them, an unknown transfer coding) is refused here too.
        router.add(middleware: FramingCheck())
        router.get("livez") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ok\n"))) }
        router.get("readyz") { _, _ in
            readiness.isReady
                ? Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ready\n")))
                : Response(status: .serviceUnavailable, body: .init(byteBuffer: ByteBuffer(string: "draining\n")))
        }
        router.get("metrics") { _, _ in
            let gateway = current.gateway
            let text = await gateway.metrics.exposition(
                cache: gateway.cache, maxBytes: gateway.configuration.cache.processBound)
            return Response(
                status: .ok, headers: [.contentType: metricsContentType],
                body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
        router.get("state") { _, _ in
            await AdminEndpoints.state(current.gateway, ready: readiness.isReady)
        }
        router.get("/") { _, _ in page() }
        router.get("ui") { _, _ in page() }
        router.post("purge") { request, context in
            await purge(request, context: context, gateway: current.gateway)
        }
        // A known path asked with another method: 405 with what it allows (RFC 9110 15.5.6),
        // not the 404 of an unknown path.
        let allowed: [(path: String, methods: [HTTPRequest.Method])] = [
            ("livez", [.get, .head]), ("readyz", [.get, .head]), ("metrics", [.get, .head]), ("purge", [.post]),
            ("state", [.get, .head]), ("ui", [.get, .head]),
        ]
        for (path, methods) in allowed {
            let allow = methods.map(\.rawValue).joined(separator: ", ")
            for method in [HTTPRequest.Method.get, .head, .post, .put, .patch, .delete] where !methods.contains(method)
            {
                router.on(RouterPath(path), method: method) { request, _ in
                    var response = Problem.response(.methodNotAllowed(request.method.rawValue, path: "/" + path))
                    response.headers[.allow] = allow
                    return response
                }
            }
        }
        return Application(
            router: router,
            server: HTTPServerBuilder { respond in
                VersionAwareHTTP1Channel(
                    http1: HTTP1Channel(responder: respond, configuration: .init(idleTimeout: nil)),
                    idleTimeout: TimeAmount(idleTimeout))
            },
            configuration: ApplicationConfiguration(
                address: .hostname(address.host, port: address.port), serverName: nil),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    /// `RequestFraming.check` as a middleware: its problem answer instead of the endpoint's.
    struct FramingCheck: RouterMiddleware {
        typealias Context = GatewayContext

        func handle(
            _ request: Request, context: GatewayContext, next: (Request, GatewayContext) async throws -> Response
        ) async throws -> Response {
            do {
                try RequestFraming.check(request.head)
            } catch {
                return Problem.response(error)
            }
            return try await next(request, context)
        }
    }

    static func purge(_ request: Request, context: GatewayContext, gateway: Gateway) async -> Response {
        if let token = gateway.configuration.server.adminToken {
            guard bearerMatches(request.headers[.authorization], token: token) else {
                return Problem.response(.unauthorized, extraHeaders: [.wwwAuthenticate: "Bearer"])
            }
        } else if !isLoopback(context.peerAddress) {
            return Problem.response(.forbidden)
        }
        let name = request.uri.queryParameters["route"].map(String.init)
        guard let name, let route = gateway.routes.first(where: { $0.name == name }) else {
            let quoted = DetailText.clip(name ?? "")
            return Problem.response(.invalidParameter("route '\(quoted)' is not a configured route name"))
        }
        await gateway.cache.drop(route: route.name, retention: route.config.cache.snapshotRetention)
        return Response(status: .noContent)
    }

    /// `Authorization: Bearer TOKEN`, the scheme in any case (RFC 9110 11.1). The tokens'
    /// SHA-256 digests are compared in full, so the time taken says neither where the token
    /// differs nor how long it is.
    static func bearerMatches(_ authorization: String?, token: String) -> Bool {
        guard let authorization, let space = authorization.firstIndex(of: " "),
            authorization[..<space].lowercased() == "bearer"
        else { return false }
        let given = SHA256.hash(
            data: Array(authorization[authorization.index(after: space)...].drop { $0 == " " }.utf8))
        let wanted = SHA256.hash(data: Array(token.utf8))
        return zip(given, wanted).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func isLoopback(_ address: String?) -> Bool {
        guard let address else { return false }
        return address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }
}
