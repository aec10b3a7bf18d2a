/// Every problem Folio answers, one factory per code, by area: the request's here, Folio's and
/// the upstream's in `FolioError+Upstream.swift`, `since`'s and the dialects' in
/// `FolioError+Changes.swift`; docs/API.md ("Errors") lists the same codes for clients. Codes
/// are stable (clients and metric labels use them); titles and details may change. Details
/// name pages by number and never the upstream's URL: upstream hosts and paths stay in the log.
extension FolioError {
    // MARK: The request

    /// 400: the query string has a bad percent-escape or decodes to invalid UTF-8.
    public static func invalidQuery(_ detail: String) -> FolioError {
        FolioError(code: "invalid-query", status: 400, title: "Invalid query string", detail: detail)
    }

    /// 400: a request parameter is malformed or not allowed.
    public static func invalidParameter(_ detail: String) -> FolioError {
        FolioError(code: "invalid-parameter", status: 400, title: "Invalid parameter", detail: detail)
    }

    /// 400: one of Folio's own parameters was sent more than once (even with equal values),
    /// because picking one silently would page through something the client did not mean.
    public static func duplicateParameter(_ name: String) -> FolioError {
        FolioError(
            code: "duplicate-parameter", status: 400, title: "Duplicate parameter",
            detail: "parameter \"\(DetailText.clip(name))\" was given more than once")
    }

    /// 400: two parameters (or a parameter and the `Range` header) ask for the slice in two ways.
    public static func conflictingParameters(_ detail: String) -> FolioError {
        FolioError(code: "conflicting-parameters", status: 400, title: "Conflicting parameters", detail: detail)
    }

    /// 400: the page size is above the route's maximum and the route rejects rather than clamps.
    public static func pageSizeTooLarge(name: String, requested: Int, maximum: Int) -> FolioError {
        FolioError(
            code: "page-size-too-large", status: 400, title: "Page size too large",
            detail: "\(name) \(requested) is above the maximum page size \(maximum)")
    }

    /// 400: the request's framing is ambiguous (a second `Host`, an obfuscated
    /// `Transfer-Encoding`); it is never forwarded.
    public static func badFraming(_ detail: String) -> FolioError {
        FolioError(code: "bad-framing", status: 400, title: "Bad request framing", detail: detail)
    }

    /// 400: a path segment has bad percent-encoding or is not UTF-8.
    public static func invalidPath(segment: Substring) -> FolioError {
        FolioError(
            code: "invalid-path", status: 400, title: "Invalid path",
            detail: "The path segment '\(DetailText.clip(String(segment)))' has bad percent-encoding or is not UTF-8.")
    }

    /// 400: a path holding a dot segment (`.` or `..`, dots possibly percent-encoded); nothing
    /// is forwarded, since an origin resolving it could serve a path outside the prefix Folio
    /// forwards to.
    public static let dotSegmentInPath = FolioError(
        code: "invalid-path", status: 400, title: "Invalid path",
        detail: "The path holds a '.' or '..' segment (dots possibly written %2e, segments possibly separated by "
            + "%2f); clients resolve those before sending.")

    /// 400: a request target that is neither a path (origin form) nor `*` with `OPTIONS`.
    public static func invalidRequestTarget(_ target: String) -> FolioError {
        FolioError(
            code: "invalid-request-target", status: 400, title: "Invalid request target",
            detail: "The request target '\(DetailText.clip(target))' is not a path starting with '/' "
                + "('*' is only for OPTIONS).")
    }

    /// 400: a path placeholder's value could change which upstream path is asked.
    public static func invalidPathParameter(name: String) -> FolioError {
        FolioError(
            code: "invalid-path-parameter", status: 400, title: "Invalid path parameter",
            detail: "The value of {\(name)} may not be '.' or '..' or contain '/', '?' or '#'.")
    }

    /// 400: the client's request body could not be read (malformed chunked framing, or the
    /// connection failed mid-body); nothing complete was forwarded.
    public static let unreadableRequestBody = FolioError(
        code: "invalid-request-body", status: 400, title: "Invalid request body",
        detail: "The request body could not be read: its framing is malformed or it ended early.")

    /// 401: a purge without the admin bearer token.
    public static let unauthorized = FolioError(
        code: "unauthorized", status: 401, title: "Unauthorized", detail: "purge needs the admin bearer token")

    /// 403: a purge from another host than loopback when no `adminToken` is set.
    public static let forbidden = FolioError(
        code: "forbidden", status: 403, title: "Forbidden", detail: "without adminToken only loopback peers may purge")

    /// 404: no route matches and there is no `fallbackUpstream`.
    public static func notFound(path: String) -> FolioError {
        FolioError(
            code: "not-found", status: 404, title: "Not found",
            detail: "no route matches \(DetailText.clip(path))")
    }

    /// 405: a method a list route (or Folio at all: `CONNECT`) does not serve.
    public static func methodNotAllowed(_ method: String, path: String) -> FolioError {
        FolioError(
            code: "method-not-allowed", status: 405, title: "Method not allowed",
            detail: "\(DetailText.clip(method)) is not served on \(DetailText.clip(path))")
    }

    /// 410: a `snapshot` token the cache no longer holds; `first` is the current list's first
    /// page, sent as `Link: <first>; rel="first"`.
    public static func snapshotGone(token: String, first: String) -> FolioError {
        FolioError(
            code: "snapshot-gone", status: 410, title: "Snapshot gone",
            detail: "snapshot '\(DetailText.clip(token))' is unknown or expired; start again from the first page",
            headers: [HeaderField("Link", "<\(first)>; rel=\"first\"")])
    }

    /// 413: a forwarded request body is larger than `limits.maxRequestBodyBytes`.
    public static func requestBodyTooLarge(limit: Int) -> FolioError {
        FolioError(
            code: "request-body-too-large", status: 413, title: "Request body too large",
            detail: "The request body exceeds \(limit) bytes (limits.maxRequestBodyBytes).", limit: .maxRequestBodyBytes
        )
    }

    /// 414: the request target is longer than `limits.maxURLBytes`.
    public static func uriTooLong(bytes: Int, limit: Int) -> FolioError {
        FolioError(
            code: "uri-too-long", status: 414, title: "URI too long",
            detail: "the request target is \(bytes) bytes; the limit is \(limit) (limits.maxURLBytes)",
            limit: .maxURLBytes)
    }

    /// 416: a `Range: items=…` starts at or past the end of the list; the `Content-Range` header
    /// tells the client how many items there are.
    public static func rangeNotSatisfiable(totalCount: Int) -> FolioError {
        FolioError(
            code: "range-not-satisfiable", status: 416, title: "Range not satisfiable",
            detail: "the requested range starts at or past the end of the list (\(totalCount) items)",
            headers: [HeaderField("Content-Range", ContentRange.unsatisfied(total: totalCount))])
    }

    /// 431: more header fields than `limits.maxHeaderCount`.
    public static func tooManyHeaderFields(count: Int, limit: Int) -> FolioError {
        FolioError(
            code: "header-fields-too-large", status: 431, title: "Request header fields too large",
            detail: "\(count) header fields; the limit is \(limit) (limits.maxHeaderCount)", limit: .maxHeaderCount)
    }

    /// 431: a header block larger than `limits.maxHeaderBytes`.
    public static func headerBlockTooLarge(bytes: Int, limit: Int) -> FolioError {
        FolioError(
            code: "header-fields-too-large", status: 431, title: "Request header fields too large",
            detail: "the header block is \(bytes) bytes; the limit is \(limit) (limits.maxHeaderBytes)",
            limit: .maxHeaderBytes)
    }
}
