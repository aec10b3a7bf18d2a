import FolioEngine

/// Why a crawl failed (docs/CONFIG.md, "Crawl behaviour worth knowing"). Like `UpstreamError`, the
/// details name pages by their number, never by URL: upstream hosts and paths stay out of client
/// answers (the log has them).
extension FolioError {
    /// 502: a page after the first answered an error status, timed out or sent a bad body.
    static func crawlPageFailed(_ detail: String, limit: Limit? = nil) -> FolioError {
        FolioError(code: "upstream-page-failed", status: 502, title: "Upstream page failed", detail: detail, limit: limit)
    }

    /// 502: a next link points to another scheme, host or port than the configured upstream.
    static func crawlForeignOrigin(page: Int) -> FolioError {
        FolioError(
            code: "upstream-crawl-foreign-origin", status: 502, title: "Upstream crawl left its origin",
            detail: "The next link of page \(page) points to another origin than the configured upstream.")
    }

    /// 502: a next link is not a usable URL.
    static func crawlBadNextLink(page: Int) -> FolioError {
        FolioError(
            code: "upstream-crawl-bad-link", status: 502, title: "Unusable upstream next link",
            detail: "The next link of page \(page) is not a valid URL.")
    }

    /// 502: a next link leads back to a page already fetched.
    static func crawlLoop(page: Int) -> FolioError {
        FolioError(
            code: "upstream-crawl-loop", status: 502, title: "Upstream crawl loops",
            detail: "The next link of page \(page) leads back to a page already fetched.")
    }

    /// 502: the list has more pages than `upstreamPaging.maxPages`.
    static func crawlTooManyPages(maxPages: Int) -> FolioError {
        FolioError(
            code: "upstream-crawl-too-many-pages", status: 502, title: "Too many upstream pages",
            detail: "The upstream list has more than \(maxPages) pages (upstreamPaging.maxPages).")
    }

    /// 502: the first body's `totalField` is unusable or disagrees with the items received.
    static func crawlTotalMismatch(_ detail: String) -> FolioError {
        FolioError(code: "upstream-total-mismatch", status: 502, title: "Upstream total disagrees", detail: detail)
    }

    /// 504: the whole crawl took longer than `limits.crawlTimeout`.
    static func crawlTimeout(_ timeout: Duration) -> FolioError {
        FolioError(
            code: "upstream-crawl-timeout", status: 504, title: "Upstream crawl timeout",
            detail: "The upstream pages were not all received within \(timeout) (limits.crawlTimeout).",
            limit: .crawlTimeout)
    }
}
