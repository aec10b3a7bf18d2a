/// The problems of Folio itself and of the upstream, and the ways to change a problem (the
/// codes of the request are in `FolioError+Request.swift`; docs/API.md, "Errors").
extension FolioError {
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
