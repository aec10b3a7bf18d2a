import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension AdminEndpoints {
    /// `GET /` and `GET /ui`: the admin page, with a policy that lets it run its own inline
    /// script and style and reach this origin only.
    static func page() -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .contentSecurityPolicy: AdminPage.contentSecurityPolicy,
                .xContentTypeOptions: "nosniff",
                HTTPField.Name("Referrer-Policy")!: "no-referrer",
                .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(string: AdminPage.html)))
    }

    /// `GET /state`: `AdminState` as JSON (docs/API.md, "Admin state").
    static func state(_ gateway: Gateway, ready: Bool) async -> Response {
        let state = await AdminState.gather(gateway, ready: ready)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(state)) ?? Data("{}".utf8)
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
