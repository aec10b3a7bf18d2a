import FolioEngine
import HTTPTypes
import Hummingbird
import NIOCore

/// Renders `FolioError`s as RFC 9457 `application/problem+json` answers.
enum Problem {
    /// Problem `type` prefix: a URN, so it never pretends to be a fetchable page.
    static let typePrefix = "urn:folio:problem:"

    static func body(_ error: FolioError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + error.detail.utf8.count)
        out.append(contentsOf: #"{"type":"#.utf8)
        JSONText.appendString(typePrefix + error.code, to: &out)
        out.append(contentsOf: #","title":"#.utf8)
        JSONText.appendString(error.title, to: &out)
        out.append(contentsOf: #","status":"#.utf8)
        out.append(contentsOf: String(error.status).utf8)
        out.append(contentsOf: #","detail":"#.utf8)
        JSONText.appendString(error.detail, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `error` as an answer: its status, its own fields (e.g. `Cache-Status`) after
    /// `Content-Type`, then `extraHeaders`.
    static func answer(_ error: FolioError, extraHeaders: HTTPFields = [:]) -> SentAnswer {
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        for field in error.headers {
            if let name = HTTPField.Name(field.name) { headers.append(HTTPField(name: name, value: field.value)) }
        }
        headers.append(contentsOf: extraHeaders)
        return SentAnswer(
            status: HTTPResponse.Status(code: error.status), headers: headers, body: ByteBuffer(bytes: body(error)))
    }

    /// `answer` for Hummingbird's own routes (the admin listener).
    static func response(_ error: FolioError, extraHeaders: HTTPFields = [:]) -> Response {
        answer(error, extraHeaders: extraHeaders).response
    }
}
