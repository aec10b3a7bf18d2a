import HTTPTypes
import Hummingbird

/// SPEC 3.2's CORS rules, answered by Folio itself (no upstream request for a preflight).
enum CORS {
    static let allowedMethods = "GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE"
    static let preflightMethods = "GET, HEAD, POST, PUT, PATCH, DELETE"
    static let exposed = "Link, X-Total-Count, ETag, Content-Range"

    /// The `Access-Control-Allow-Origin` value for `origin`, or nil when it is not allowed.
    static func allowOrigin(_ origin: String?, allowed: [String]) -> String? {
        guard let origin, !allowed.isEmpty else { return nil }
        if allowed.contains("*") { return "*" }
        return allowed.contains(origin) ? origin : nil
    }

    /// Adds the allow-origin headers for an allowed `Origin` to any answer.
    static func decorate(_ headers: inout HTTPFields, origin: String?, allowed: [String]) {
        guard headers[.accessControlAllowOrigin] == nil, let value = allowOrigin(origin, allowed: allowed) else { return }
        headers[.accessControlAllowOrigin] = value
        if value != "*" { appendVary(&headers, "Origin") }
    }

    static func appendVary(_ headers: inout HTTPFields, _ name: String) {
        if let existing = headers[.vary], !existing.isEmpty {
            if !existing.lowercased().split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == name.lowercased() }) {
                headers[.vary] = existing + ", " + name
            }
        } else {
            headers[.vary] = name
        }
    }

    /// OPTIONS on a route path: a preflight from an allowed origin gets the allow headers;
    /// anything else gets 204 with `Allow` only.
    static func preflight(_ request: Request, allowed: [String]) -> Response {
        var headers: HTTPFields = [.allow: allowedMethods]
        let isPreflight = request.headers[.accessControlRequestMethod] != nil
        if isPreflight, let value = allowOrigin(request.headers[.origin], allowed: allowed) {
            headers[.accessControlAllowOrigin] = value
            if value != "*" { appendVary(&headers, "Origin") }
            headers[.accessControlAllowMethods] = preflightMethods
            if let requested = request.headers[.accessControlRequestHeaders] {
                headers[.accessControlAllowHeaders] = requested
            }
            headers[.accessControlMaxAge] = "600"
        }
        return Response(status: .noContent, headers: headers)
    }
}
