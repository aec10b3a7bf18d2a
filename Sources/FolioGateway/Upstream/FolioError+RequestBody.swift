import FolioEngine

extension FolioError {
    /// 413: a forwarded request body is larger than `limits.maxRequestBodyBytes`.
    public static func requestBodyTooLarge(limit: Int) -> FolioError {
        FolioError(
            code: "request-body-too-large",
            status: 413,
            title: "Request body too large",
            detail: "The request body exceeds \(limit) bytes (limits.maxRequestBodyBytes).",
            limit: .maxRequestBodyBytes
        )
    }

    /// 400: the client's request body could not be read (malformed chunked framing, or the
    /// connection failed mid-body); nothing complete was forwarded.
    static let unreadableRequestBody = FolioError(
        code: "invalid-request-body",
        status: 400,
        title: "Invalid request body",
        detail: "The request body could not be read: its framing is malformed or it ended early."
    )
}
