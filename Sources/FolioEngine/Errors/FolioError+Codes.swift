/// Every problem Folio answers, one factory per code; docs/API.md ("Errors") lists the same
/// codes for clients. Codes are stable (clients and metric labels use them); titles and details
/// may change. Details name pages by number and never the upstream's URL: upstream hosts and
/// paths stay in the log.
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

    // MARK: Folio itself

    /// 500: a configured JSON Pointer is malformed (config validation normally reports it first).
    public static func invalidJSONPointer(_ detail: String) -> FolioError {
        FolioError(code: "invalid-json-pointer", status: 500, title: "Invalid JSON pointer", detail: detail)
    }

    /// 500: an error Folio has no name for (a bug); the log has the error itself.
    public static let `internal` = FolioError(
        code: "internal", status: 500, title: "Internal error", detail: "unexpected error")

    // MARK: The upstream

    /// 502: the upstream body is not a usable list.
    public static func badUpstreamBody(_ detail: String) -> FolioError {
        FolioError(code: "bad-upstream-body", status: 502, title: "Bad upstream body", detail: detail)
    }

    /// 502: an upstream list exceeds one of the configured limits.
    public static func upstreamLimit(_ detail: String, limit: Limit) -> FolioError {
        FolioError(
            code: "upstream-limit-exceeded", status: 502, title: "Upstream limit exceeded", detail: detail, limit: limit
        )
    }

    /// 502: the upstream refused the connection or could not be reached.
    public static let upstreamUnreachable = FolioError(
        code: "upstream-unreachable", status: 502, title: "Upstream unreachable",
        detail: "The upstream refused the connection or could not be reached.")

    /// 504: no connection within `limits.connectTimeout`.
    public static let upstreamConnectTimeout = FolioError(
        code: "upstream-connect-timeout", status: 504, title: "Upstream connect timeout",
        detail: "The upstream did not accept a connection in time.", limit: .connectTimeout)

    /// 504: no complete answer within `limits.upstreamTimeout`.
    public static let upstreamTimeout = FolioError(
        code: "upstream-timeout", status: 504, title: "Upstream timeout",
        detail: "The upstream did not send its whole answer in time.", limit: .upstreamTimeout)

    /// 502: a redirect to another origin.
    public static let upstreamRedirectRefused = FolioError(
        code: "upstream-redirect-refused", status: 502, title: "Upstream redirect refused",
        detail: "The upstream redirected to another origin.")

    /// 502: more than 5 redirects.
    public static let upstreamTooManyRedirects = FolioError(
        code: "upstream-too-many-redirects", status: 502, title: "Too many upstream redirects",
        detail: "The upstream redirected more than 5 times.")

    /// 502: a body over `limits.maxUpstreamBytes` once decoded.
    public static let upstreamBodyTooLarge = FolioError(
        code: "upstream-body-too-large", status: 502, title: "Upstream body too large",
        detail: "The upstream body exceeds limits.maxUpstreamBytes (counted after decompression).",
        limit: .maxUpstreamBytes)

    /// 502: the upstream answered a status that is neither a list (2xx), a redirect Folio follows,
    /// nor an error passed through (4xx/5xx): a 304 to a request without validators, another
    /// 3xx without a `Location` to follow, a 300 or a 1xx.
    public static func upstreamUnexpectedStatus(_ detail: String) -> FolioError {
        FolioError(code: "upstream-unexpected-status", status: 502, title: "Unexpected upstream status", detail: detail)
    }

    /// 502: any other failed exchange.
    public static func upstreamFailed(_ detail: String = "The upstream exchange failed.") -> FolioError {
        FolioError(code: "upstream-failed", status: 502, title: "Upstream failed", detail: detail)
    }

    /// 502: a crawl's page after the first answered an error status, timed out or sent a bad body.
    public static func crawlPageFailed(_ detail: String, limit: Limit? = nil) -> FolioError {
        FolioError(
            code: "upstream-page-failed", status: 502, title: "Upstream page failed", detail: detail, limit: limit)
    }

    /// 502: a next link points to another scheme, host or port than the configured upstream.
    public static func crawlForeignOrigin(page: Int) -> FolioError {
        FolioError(
            code: "upstream-crawl-foreign-origin", status: 502, title: "Upstream crawl left its origin",
            detail: "The next link of page \(page) points to another origin than the configured upstream.")
    }

    /// 502: a next link is not a usable URL.
    public static func crawlBadNextLink(page: Int) -> FolioError {
        FolioError(
            code: "upstream-crawl-bad-link", status: 502, title: "Unusable upstream next link",
            detail: "The next link of page \(page) is not a valid URL.")
    }

    /// 502: a next link leads back to a page already fetched.
    public static func crawlLoop(page: Int) -> FolioError {
        FolioError(
            code: "upstream-crawl-loop", status: 502, title: "Upstream crawl loops",
            detail: "The next link of page \(page) leads back to a page already fetched.")
    }

    /// 502: the list has more pages than `upstreamPaging.maxPages`.
    public static func crawlTooManyPages(maxPages: Int) -> FolioError {
        FolioError(
            code: "upstream-crawl-too-many-pages", status: 502, title: "Too many upstream pages",
            detail: "The upstream list has more than \(maxPages) pages (upstreamPaging.maxPages).")
    }

    /// 502: the first body's `totalField` is unusable or disagrees with the items received.
    public static func crawlTotalMismatch(_ detail: String) -> FolioError {
        FolioError(code: "upstream-total-mismatch", status: 502, title: "Upstream total disagrees", detail: detail)
    }

    /// 504: the whole crawl took longer than `limits.crawlTimeout`.
    public static func crawlTimeout(_ timeout: Duration) -> FolioError {
        FolioError(
            code: "upstream-crawl-timeout", status: 504, title: "Upstream crawl timeout",
            detail: "The upstream pages were not all received within \(timeout) (limits.crawlTimeout).",
            limit: .crawlTimeout)
    }

    // MARK: Changing one

    /// The same problem with one more response header (e.g. the `Cache-Status` of the answer
    /// that found it).
    public func adding(header: HeaderField) -> FolioError {
        FolioError(code: code, status: status, title: title, detail: detail, headers: headers + [header], limit: limit)
    }

    /// The same problem, counted against `limit`.
    public func counted(against limit: Limit?) -> FolioError {
        FolioError(code: code, status: status, title: title, detail: detail, headers: headers, limit: limit)
    }
}

/// Client text echoed in problem details is clipped so a huge query cannot blow up the answer
/// (docs/API.md, "Errors": a detail quotes at most 200 bytes of an offending value). Every
/// problem that quotes what a client sent goes through `clip`.
package enum DetailText {
    /// The most bytes of one client value a problem's detail quotes.
    package static let maxQuotedBytes = 200

    /// `text` whole when it has at most `limit` UTF-8 bytes; otherwise its longest prefix of
    /// whole Unicode scalars within `limit` bytes, then `…`. Scalars, not Characters: one
    /// Character may hold any number of combining marks.
    package static func clip(_ text: String, limit: Int = maxQuotedBytes) -> String {
        let utf8 = text.utf8
        guard utf8.count > limit else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        // Back up to the first byte of a scalar: continuation bytes are 10xxxxxx.
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(decoding: utf8[..<end], as: UTF8.self) + "…"
    }
}

// MARK: Changes between snapshots

/// The problems of `since` (docs/API.md, "Changes between snapshots"); a token that is gone is
/// `snapshotGone`, as for pinned pages.
extension FolioError {
    /// 409: a list in which an item has no string or number at `idField`, or repeats an earlier
    /// item's id, has no changes; the detail names the first such item (0-based, upstream order).
    public static func idsNotUnique(_ problem: ItemIDs.Problem, idField: String) -> FolioError {
        let what =
            if let earlier = problem.repeats {
                "item \(problem.index) repeats the id of item \(earlier)"
            } else {
                "item \(problem.index) has no string or number at idField '\(DetailText.clip(idField))'"
            }
        return FolioError(
            code: "ids-not-unique", status: 409, title: "Ids not unique",
            detail: "\(what), so this list has no changes to answer; its pages are served as usual")
    }

    /// 400: `since` with a parameter that selects a page or another answer (`offset`, `page`,
    /// `pageSize`, `Range`, `snapshot`, `groupBy`, `metadataOnly`): a change feed covers the
    /// whole view. The same code as the other parameters that ask for two answers at once.
    public static func sinceCombined(with parameter: String) -> FolioError {
        conflictingParameters(
            "since answers the whole view's changes; it cannot be combined with \(DetailText.clip(parameter))")
    }

    /// 400: `since` on a route without `idField`: without ids there are no changes to compute.
    public static let changesUnavailable = FolioError(
        code: "changes-unavailable", status: 400, title: "Changes unavailable",
        detail: "this route has no idField, so it answers no since requests")

    /// 503: one event stream more than `server.watch.maxWatchers` on this replica
    /// (docs/API.md, "Watching a list").
    public static func tooManyWatchers(limit: Int) -> FolioError {
        FolioError(
            code: "too-many-watchers", status: 503, title: "Too many watchers",
            detail: "this replica has \(limit) open event streams, its server.watch.maxWatchers; try again later")
    }
}

// MARK: Dialects that name items by id

/// The problems of the dialects that name items by id (docs/API.md, "More dialects").
extension FolioError {
    /// 502: a `jsonapi`, `strapi` or `stripe` route over a list in which an item is not an object with a string or
    /// number at `idField`, so there is no id to name it by; the detail names the first such item (0-based,
    /// upstream order).
    public static func itemsWithoutID(index: Int, idField: String) -> FolioError {
        FolioError(
            code: "items-without-id", status: 502, title: "Items without id",
            detail:
                "item \(index) of the upstream's list has no string or number at idField '\(DetailText.clip(idField))'")
    }

    /// 400: a cursor (`stripe`'s `starting_after`, `ending_before`) that no item of the snapshot has as its id.
    public static func unknownCursor(name: String, id: String) -> FolioError {
        FolioError(
            code: "unknown-cursor", status: 400, title: "Unknown cursor",
            detail: "\(name) '\(DetailText.clip(id))' is the id of no item of this list")
    }
}
