import FolioEngine
import HTTPTypes
import HummingbirdCore
import NIOCore

/// A list answer (page, 206, `metadataOnly`, section index) kept in its snapshot's
/// `rendered` answers under the request that asked for it (docs/API.md, "Rendered answers"):
/// the same request target, `Range`, `Accept-Encoding` and route config on the same snapshot
/// always render the same bytes, so a page asked for again is sent from here without building
/// its links, its ETag, its header fields or its body again.
///
/// What differs per request (`Cache-Status`, `Age`, `X-Request-ID`, CORS, a `304` for a
/// matching `If-None-Match`, no body for HEAD) is added when it is sent.
///
/// A class: a cached page hands it on several times, and a copy of it is then one reference
/// count, not one per field.
final class KeptListAnswer: RenderedAnswer {
    let status: HTTPResponse.Status
    /// What a `304` carries: `Link`, `X-Total-Count`, `Vary`, `ETag`.
    let notModified: HTTPFields
    /// What a `200`/`206` carries: the above and the entity fields (`Content-Type`,
    /// `Accept-Ranges`, `Content-Range`, `Content-Encoding`, `Content-Length`).
    let full: HTTPFields
    /// The `ETag` of this coding of the answer.
    let tag: String
    let body: ByteBuffer
    /// The status line and `full`, and the `304` line and `notModified`, as HTTP/1.1 bytes, for
    /// `FrontDoorHandler`, which then writes only the fields added per request.
    let fullHead: KeptHead
    let notModifiedHead: KeptHead

    init(status: HTTPResponse.Status, notModified: HTTPFields, full: HTTPFields, tag: String, body: ByteBuffer) {
        self.status = status
        self.notModified = notModified
        self.full = full
        self.tag = tag
        self.body = body
        fullHead = KeptHead(status: status, fields: full)
        notModifiedHead = KeptHead(status: .notModified, fields: notModified)
    }

    var byteCount: Int {
        body.readableBytes + fullHead.bytes.readableBytes + notModifiedHead.bytes.readableBytes
            + full.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
    }

    /// The key of `request`'s answer on `route`: everything of the request the answer depends
    /// on, the target as it came (a different spelling of the same query is another key).
    static func key(_ request: HTTPRequest, route: CompiledRoute) -> String {
        let path = request.path ?? "/"
        var range: String?
        var acceptEncoding = ""
        for field in request.headerFields {
            switch field.name {
            case .range: range = range.map { $0 + ", " + field.value } ?? field.value
            case .acceptEncoding:
                acceptEncoding += "\u{0}"
                acceptEncoding += field.value
            default: continue
            }
        }
        var key = ""
        key.reserveCapacity(24 + path.utf8.count + (range?.utf8.count ?? 0) + acceptEncoding.utf8.count)
        key += String(route.renderID)
        key += "\u{0}"
        key += path
        key += "\u{0}"
        key += range ?? ""
        key += acceptEncoding
        return key
    }

    /// This answer to `request`: a `304` when its `If-None-Match` matches, no body for HEAD.
    func sending(to request: HTTPRequest, cacheStatus: String, age: Int?) -> SentAnswer {
        let notModified = request.headerFields[.ifNoneMatch].map { ETag.matches(ifNoneMatch: $0, etag: tag) } ?? false
        // Never among the kept fields: added after them, which stay shared with this answer.
        var added: [HTTPField] = []
        added.reserveCapacity(SentAnswer.usuallyAdded)
        added.append(HTTPField(name: .cacheStatus, value: cacheStatus))
        if let age { added.append(HTTPField(name: .age, value: String(age))) }
        if notModified {
            return SentAnswer(
                status: .notModified, headers: self.notModified, added: added, body: nil, keptHead: notModifiedHead)
        }
        return SentAnswer(
            status: status, headers: full, added: added, body: request.method == .head ? nil : body,
            keptHead: fullHead)
    }
}

/// An answer as written to the connection: its head and its body (nil: none).
struct SentAnswer: Sendable {
    var status: HTTPResponse.Status
    /// The answer's own fields; for a kept answer, the ones it keeps (shared, not copied).
    var headers: HTTPFields
    /// Fields added for this request, after `headers` (`Cache-Status`, `Age`, `X-Request-ID`,
    /// CORS): a kept answer's fields are then never copied to send it.
    var added: [HTTPField] = []
    var body: ByteBuffer?
    /// The status line and the first `keptHead.fieldCount` of `headers` as bytes, while those
    /// fields are unchanged (set to nil by whoever changes one).
    var keptHead: KeptHead?
    /// A body written over time instead of `body` (an event stream: docs/API.md, "Watching a
    /// list"); never an answer given at once.
    var stream: EventStream?

    /// Every field: `headers`, then `added`.
    var allFields: HTTPFields {
        var fields = headers
        fields.append(contentsOf: added)
        return fields
    }

    /// Room for the fields a kept answer usually gains: `Cache-Status`, `Age`, `X-Request-ID`,
    /// and two of CORS.
    static let usuallyAdded = 5
}

/// A status line and header fields as HTTP/1.1 bytes (each field's line with its CRLF, no
/// blank line), made once for a kept answer.
struct KeptHead: Sendable {
    let bytes: ByteBuffer
    let fieldCount: Int
    let hasContentLength: Bool

    init(status: HTTPResponse.Status, fields: HTTPFields) {
        var bytes = ByteBuffer()
        ResponseHeadWriter.writeStatusAndFields(status, fields, to: &bytes)
        self.bytes = bytes
        fieldCount = fields.count
        hasContentLength = fields[.contentLength] != nil
    }
}
