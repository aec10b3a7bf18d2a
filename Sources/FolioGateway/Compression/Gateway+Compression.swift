import FolioConfiguration
import FolioEngine
import HTTPTypes
import Hummingbird
import NIOCore

extension Gateway {
    /// Finishes a list answer (page, 206, `metadataOnly`, section index) from its identity body:
    /// picks the coding (docs/API.md, "Compressed answers"), the coding's ETag, answers `304` when
    /// `If-None-Match` matches that tag, and otherwise sends the body, compressed once per
    /// snapshot, query and coding and then reused from `snapshot.rendered`.
    ///
    /// - Parameters:
    ///   - headers: what every answer carries, `304` included (`Link`, `X-Total-Count`,
    ///     `Cache-Status`, `Age`).
    ///   - entity: what only a `200`/`206` carries (`Content-Type`, `Accept-Ranges`,
    ///     `Content-Range`).
    ///   - etag: the identity representation's tag.
    ///   - grew: set when a new compressed body was kept, so the caller recounts the snapshot
    ///     against `cache.maxBytes`.
    func listAnswer(
        _ request: Request, status: HTTPResponse.Status, headers: HTTPFields, entity: HTTPFields, etag: String,
        body: [UInt8], snapshot: Snapshot, grew: inout Bool
    ) -> Response {
        var headers = headers
        let compression = configuration.server.compression
        var coding: ContentCoding?
        if !compression.encodings.isEmpty {
            CORSRules.appendVary(&headers, "Accept-Encoding")
            if body.count >= compression.minBytes {
                let accepted = request.headers[values: .acceptEncoding]
                coding = AcceptEncoding.negotiate(
                    accepted.isEmpty ? nil : accepted.joined(separator: ", "), offered: compression.encodings)
            }
        }
        let tag = coding.map { ETag.coded(etag, $0.token) } ?? etag
        headers[.eTag] = tag
        if let ifNoneMatch = request.headers[.ifNoneMatch], ETag.matches(ifNoneMatch: ifNoneMatch, etag: tag) {
            return Response(status: .notModified, headers: headers)
        }
        headers.append(contentsOf: entity)
        var bytes = body
        if let coding {
            if let kept = snapshot.rendered.page(tag) {
                bytes = kept
            } else {
                bytes = Compressor.compress(body, as: coding)
                grew = snapshot.rendered.store(bytes, for: tag) || grew
            }
            headers[.contentEncoding] = coding.token
        }
        headers[.contentLength] = String(bytes.count)
        if request.method == .head {
            return Response(status: status, headers: headers, body: ResponseBody())
        }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
