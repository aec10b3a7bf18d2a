import FolioConfiguration
import FolioEngine
import Hummingbird

/// Folio's own request limits (SECURITY.md, "Limits"), set below the HTTP parser's caps so a breach
/// is a clear problem answer rather than a bare 400 and a closed connection.
enum RequestLimits {
    static func check(_ request: HTTPRequest, limits: Configuration.Limits) throws(FolioError) {
        let targetBytes = (request.path ?? "").utf8.count
        if targetBytes > limits.maxURLBytes {
            throw .uriTooLong(bytes: targetBytes, limit: limits.maxURLBytes)
        }
        // `Host` arrives as the request's authority, not among its fields: it counts as a field.
        let fields = request.headerFields
        let host = request.authority.map { "Host".utf8.count + $0.utf8.count + 4 }
        let count = fields.count + (host == nil ? 0 : 1)
        if count > limits.maxHeaderCount {
            throw .tooManyHeaderFields(count: count, limit: limits.maxHeaderCount)
        }
        var bytes = host ?? 0
        for field in fields { bytes += field.name.rawName.utf8.count + field.value.utf8.count + 4 }
        if bytes > limits.maxHeaderBytes {
            throw .headerBlockTooLarge(bytes: bytes, limit: limits.maxHeaderBytes)
        }
    }
}
