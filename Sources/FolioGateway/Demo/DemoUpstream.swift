import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// The demo's built-in legacy upstream.
///
/// - `GET /objects`: all of `DemoData` as one unpaginated array.
/// - `GET /paged/objects?page=N`: pages of 20 with a `Link: <…>; rel="next"` header and no
///   total, the shape of a partially paginated legacy endpoint.
/// - `POST /objects/change`: one more of the demo's changes (`DemoData.objects(version:)`), so
///   `since` answers and watch streams have something to show; `changeEvery` makes one on a
///   timer too.
public enum DemoUpstream {
    public static let pageSize = 20

    public static func application(
        host: String = "127.0.0.1", port: Int = 0, logger: Logger, changeEvery: Duration? = nil,
        onServerRunning: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol {
        let list = DemoList()
        let router = Router()
        router.get("objects") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: list.whole))
        }
        router.post("objects/change") { _, _ in
            let version = list.change()
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"version":\#(version)}"#)))
        }
        router.get("paged/objects") { request, _ in
            let items = list.items
            let page = request.uri.queryParameters["page"].flatMap { Int($0) } ?? 1
            let start = max(0, (page - 1) * pageSize)
            let end = min(items.count, start + pageSize)
            var headers: HTTPFields = [.contentType: "application/json"]
            if end < items.count {
                headers[HTTPField.Name("Link")!] = "</paged/objects?page=\(page + 1)>; rel=\"next\""
            }
            let body = start < end ? "[" + items[start..<end].joined(separator: ",") + "]" : "[]"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        if let changeEvery {
            Task {
                while (try? await Task.sleep(for: changeEvery)) != nil { _ = list.change() }
            }
        }
        return Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }
}

/// The demo upstream's list and how many changes it went through.
final class DemoList: Sendable {
    private struct State {
        var version = 0
        var items = DemoData.objects(version: 0)
        var whole = ByteBuffer(string: DemoData.array())
    }

    private let state = Mutex(State())

    var items: [String] { state.withLock { $0.items } }
    var whole: ByteBuffer { state.withLock { $0.whole } }

    /// Makes the next change; returns the new version.
    func change() -> Int {
        let version = state.withLock { $0.version + 1 }
        let items = DemoData.objects(version: version)
        let whole = ByteBuffer(string: "[" + items.joined(separator: ",") + "]")
        return state.withLock { state in
            guard state.version < version else { return state.version }
            state = State(version: version, items: items, whole: whole)
            return version
        }
    }
}
