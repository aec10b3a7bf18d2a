extension FolioError {
    /// 400: the query string has a bad percent-escape or decodes to invalid UTF-8.
    public static func invalidQuery(_ detail: String) -> FolioError {
        FolioError(code: "invalid-query", status: 400, title: "Invalid query string", detail: detail)
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

    /// 416: a `Range: items=…` starts at or past the end of the list; the `Content-Range` header
    /// tells the client how many items there are.
    public static func rangeNotSatisfiable(totalCount: Int) -> FolioError {
        FolioError(
            code: "range-not-satisfiable", status: 416, title: "Range not satisfiable",
            detail: "the requested range starts at or past the end of the list (\(totalCount) items)",
            headers: [HeaderField("Content-Range", ContentRange.unsatisfied(total: totalCount))])
    }
}

/// Client text echoed in problem details is clipped so a huge query cannot blow up the answer.
enum DetailText {
    static func clip(_ text: String, limit: Int = 64) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}
