extension ProbeReport {
    /// The human-readable form `folio probe` prints: a few indented lines per route.
    public var text: String {
        var lines = ["\(route): " + (ok ? "ok, a fill would work" : "FAILS, a fill would not work")]
        lines.append("  GET \(url)" + (status.map { " -> \($0)" } ?? " -> no answer"))
        if let items {
            let pageCount = pages.count == 1 ? "1 page" : "\(pages.count) pages"
            lines.append("  \(items) items, \(bytes) bytes in \(pageCount), \(Self.format(milliseconds)) ms")
        } else if !pages.isEmpty {
            lines.append(
                "  \(pages.count == 1 ? "1 page" : "\(pages.count) pages") fetched, \(Self.format(milliseconds)) ms")
        }
        if let freshness {
            var text =
                freshness.cacheable ? "fresh for \(freshness.seconds) s" : "not cached, fetched for every request"
            if freshness.cacheable && freshness.mustRevalidate { text += ", never served stale (must-revalidate)" }
            lines.append("  freshness: \(text) (\(freshness.why))")
        }
        if ok {
            if pages.count > 1 {
                lines.append("  validators: not used for a crawled list (refetched when stale)")
            } else if etag == nil && lastModified == nil {
                lines.append("  validators: none (refetched in full when stale)")
            } else {
                let named = [etag.map { "ETag \($0)" }, lastModified.map { "Last-Modified \($0)" }].compactMap { $0 }
                lines.append("  validators: \(named.joined(separator: ", ")) (revalidated when stale)")
            }
        }
        if let problem {
            let status = problem.status > 0 ? " \(problem.status)" : ""
            lines.append("  problem: \(problem.code)\(status): \(problem.detail)")
        }
        return lines.joined(separator: "\n")
    }

    static func format(_ milliseconds: Double) -> String {
        let rounded = (milliseconds * 10).rounded() / 10
        return rounded.formatted(.number.precision(.fractionLength(1)))
    }
}
