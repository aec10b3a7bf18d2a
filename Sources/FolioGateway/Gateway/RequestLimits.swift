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
        let fields = request.headerFields
        if fields.count > limits.maxHeaderCount {
            throw .tooManyHeaderFields(count: fields.count, limit: limits.maxHeaderCount)
        }
        var bytes = 0
        for field in fields { bytes += field.name.rawName.utf8.count + field.value.utf8.count + 4 }
        if bytes > limits.maxHeaderBytes {
            throw .headerBlockTooLarge(bytes: bytes, limit: limits.maxHeaderBytes)
        }
    }
}
