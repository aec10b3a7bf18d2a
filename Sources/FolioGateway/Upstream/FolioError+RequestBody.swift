import FolioEngine

extension FolioError {
    /// 413: a forwarded request body is larger than `limits.maxRequestBodyBytes`.
    public static func requestBodyTooLarge(limit: Int) -> FolioError {
        FolioError(
            code: "request-body-too-large",
            status: 413,
            title: "Request body too large",
            detail: "The request body exceeds \(limit) bytes."
        )
    }
}
