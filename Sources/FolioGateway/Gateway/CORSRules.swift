import HTTPTypes

/// The rules of docs/API.md, "CORS", answered by Folio itself (no upstream request for a
/// preflight).
enum CORSRules {
    static let allowedMethods = "GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE"
    static let preflightMethods = "GET, HEAD, POST, PUT, PATCH, DELETE"
    static let exposed = "Link, X-Total-Count, ETag, Content-Range"
    /// `exposed` as a field, validated once.
    static let exposeField = HTTPField(name: .accessControlExposeHeaders, value: exposed)

    /// The `Access-Control-Allow-Origin` value for `origin`, or nil when it is not allowed.
    static func allowOrigin(_ origin: String?, allowed: [String]) -> String? {
        guard let origin, !allowed.isEmpty else { return nil }
        if allowed.contains("*") { return "*" }
        return allowed.contains(origin) ? origin : nil
    }

    /// Adds the CORS headers to an answer: the allow-origin headers for an allowed `Origin` on
    /// any answer; on every answer of a route (pages, 304, 410, 416, problems) the exposed
    /// headers, so a browser can follow a 410's `Link: rel="first"`, and `Vary: Origin` while
    /// specific origins are allowed, so a shared cache never hands one origin's answer to another.
    static func decorate(_ headers: inout HTTPFields, origin: String?, allowed: [String], routeAnswer: Bool) {
        if routeAnswer {
            HTTPFields.setOrAppend(&headers, .accessControlExposeHeaders, exposed)
            if !allowed.isEmpty, !allowed.contains("*") { appendVary(&headers, "Origin") }
        }
        guard headers[.accessControlAllowOrigin] == nil, let value = allowOrigin(origin, allowed: allowed) else {
            return
        }
        headers[.accessControlAllowOrigin] = value
        if value != "*" { appendVary(&headers, "Origin") }
    }

    /// `decorate` for a route answer that has no CORS field yet, as fields to append to it
    /// (`added`); false, with nothing appended, when a field it has must change instead (`Vary`
    /// gains `Origin` while specific origins are allowed).
    static func appendRouteFields(to added: inout [HTTPField], origin: String?, allowed: [String]) -> Bool {
        guard allowed.isEmpty || allowed.contains("*") else { return false }
        added.append(exposeField)
        if let value = allowOrigin(origin, allowed: allowed) {
            added.append(HTTPField(name: .accessControlAllowOrigin, value: value))
        }
        return true
    }

    /// Adds `name` to `Vary`.
    static func appendVary(_ headers: inout HTTPFields, _ name: String) {
        if let existing = headers[.vary], !existing.isEmpty {
            if !existing.lowercased().split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == name.lowercased()
            }) {
                headers[.vary] = existing + ", " + name
            }
        } else {
            headers[.vary] = name
        }
    }

    /// OPTIONS on a route path: a preflight from an allowed origin gets the allow headers;
    /// anything else gets 204 with `Allow` only.
    static func preflight(_ request: HTTPRequest, allowed: [String]) -> SentAnswer {
        var headers: HTTPFields = [.allow: allowedMethods]
        let isPreflight = request.headerFields[.accessControlRequestMethod] != nil
        if isPreflight, let value = allowOrigin(request.headerFields[.origin], allowed: allowed) {
            headers[.accessControlAllowOrigin] = value
            if value != "*" { appendVary(&headers, "Origin") }
            headers[.accessControlAllowMethods] = preflightMethods
            if let requested = request.headerFields[.accessControlRequestHeaders] {
                headers[.accessControlAllowHeaders] = requested
            }
            headers[.accessControlMaxAge] = "600"
        }
        return SentAnswer(status: .noContent, headers: headers)
    }
}
