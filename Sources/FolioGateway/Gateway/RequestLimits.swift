import FolioEngine
import Hummingbird

/// Folio's own request limits (SECURITY.md, "Limits"), set below the HTTP parser's caps so a breach
/// is a clear problem answer rather than a bare 400 and a closed connection.
enum RequestLimits {
    static func check(_ request: Request, limits: Configuration.Limits) throws(FolioError) {
        let targetBytes = (request.head.path ?? "").utf8.count
        if targetBytes > limits.maxURLBytes {
            throw FolioError(
                code: "uri-too-long", status: 414, title: "URI too long",
                detail: "the request target is \(targetBytes) bytes; the limit is \(limits.maxURLBytes) (limits.maxURLBytes)",
                limit: .maxURLBytes)
        }
        let fields = request.headers
        if fields.count > limits.maxHeaderCount {
            throw FolioError(
                code: "header-fields-too-large", status: 431, title: "Request header fields too large",
                detail: "\(fields.count) header fields; the limit is \(limits.maxHeaderCount) (limits.maxHeaderCount)",
                limit: .maxHeaderCount)
        }
        var bytes = 0
        for field in fields { bytes += field.name.rawName.utf8.count + field.value.utf8.count + 4 }
        if bytes > limits.maxHeaderBytes {
            throw FolioError(
                code: "header-fields-too-large", status: 431, title: "Request header fields too large",
                detail: "the header block is \(bytes) bytes; the limit is \(limits.maxHeaderBytes) (limits.maxHeaderBytes)",
                limit: .maxHeaderBytes)
        }
    }
}
