import FolioConfiguration
import FolioEngine
import HTTPTypes
import NIOCore

extension ListRenderer {
    /// Finishes a list answer (page, 206, `metadataOnly`, section index) from its identity body:
    /// picks the coding (docs/API.md, "Compressed answers") and the coding's ETag, and compresses
    /// the body once per snapshot, query and coding, then reuses it from `snapshot.rendered`.
    ///
    /// - Parameters:
    ///   - headers: what every answer carries, `304` included (`Link`, `X-Total-Count`).
    ///   - entity: what only a `200`/`206` carries (`Content-Type`, `Accept-Ranges`,
    ///     `Content-Range`).
    ///   - etag: the identity representation's tag.
    ///   - route: its `vary` headers select the list, so they are named in `Vary` (ahead of
    ///     `Accept-Encoding`) for caches downstream.
    ///   - grew: set when a new compressed body was kept, so the caller recounts the snapshot
    ///     against `cache.maxBytes`.
    func finished(
        _ request: HTTPRequest, route: CompiledRoute, status: HTTPResponse.Status, headers: HTTPFields,
        entity: HTTPFields, etag: String, body: [UInt8], snapshot: Snapshot, grew: inout Bool
    ) -> KeptListAnswer {
        var headers = headers
        for name in route.config.vary { CORSRules.appendVary(&headers, name) }
        var coding: ContentCoding?
        if !compression.encodings.isEmpty {
            CORSRules.appendVary(&headers, "Accept-Encoding")
            if body.count >= compression.minBytes {
                let accepted = request.headerFields[values: .acceptEncoding]
                coding = AcceptEncoding.negotiate(
                    accepted.isEmpty ? nil : accepted.joined(separator: ", "), offered: compression.encodings)
            }
        }
        let tag = coding.map { ETag.coded(etag, $0.token) } ?? etag
        headers[.eTag] = tag
        var full = headers
        full.append(contentsOf: entity)
        let bytes: ByteBuffer
        if let coding {
            if let kept = snapshot.rendered.answer(tag, as: CompressedBody.self) {
                bytes = kept.bytes
            } else {
                bytes = ByteBuffer(bytes: Compressor.compress(body, as: coding))
                grew = snapshot.rendered.store(CompressedBody(bytes: bytes), for: tag) || grew
            }
            full[.contentEncoding] = coding.token
        } else {
            bytes = ByteBuffer(bytes: body)
        }
        full[.contentLength] = String(bytes.readableBytes)
        return KeptListAnswer(status: status, notModified: headers, full: full, tag: tag, body: bytes)
    }
}

/// A compressed body kept per normalized query and coding (its tag), for every request target
/// that asks for it. The kept answers that carry it share its storage; each counts it in full
/// against `cache.maxBytes` (an overcount, so the bound holds whichever goes first).
struct CompressedBody: RenderedAnswer {
    let bytes: ByteBuffer
    var byteCount: Int { bytes.readableBytes }
}
