import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The demo's built-in legacy upstream.
///
/// - `GET /objects`: all of `DemoData` as one unpaginated array.
/// - `GET /paged/objects?page=N`: pages of 20 with a `Link: <…>; rel="next"` header and no
///   total, the shape of a partially paginated legacy endpoint.
public enum DemoUpstream {
    public static let pageSize = 20

    public static func application(
        host: String = "127.0.0.1", port: Int = 0, logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol {
        let whole = ByteBuffer(string: DemoData.array())
        let router = Router()
        router.get("objects") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: whole))
        }
        router.get("paged/objects") { request, _ in
            let page = request.uri.queryParameters["page"].flatMap { Int($0) } ?? 1
            let start = max(0, (page - 1) * pageSize)
            let end = min(DemoData.count, start + pageSize)
            var headers: HTTPFields = [.contentType: "application/json"]
            if end < DemoData.count {
                headers[HTTPField.Name("Link")!] = "</paged/objects?page=\(page + 1)>; rel=\"next\""
            }
            let body = start < end ? DemoData.array(start..<end) : "[]"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        return Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }
}
