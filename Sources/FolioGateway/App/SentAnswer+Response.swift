import Hummingbird

extension SentAnswer {
    /// This answer as Hummingbird writes it: every field, and the body (none: empty).
    var response: Response {
        Response(
            status: status, headers: allFields,
            body: stream?.responseBody ?? body.map { ResponseBody(byteBuffer: $0) } ?? .init())
    }
}
