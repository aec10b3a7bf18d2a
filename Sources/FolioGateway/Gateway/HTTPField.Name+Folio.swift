import HTTPTypes

/// The fields Folio reads or writes that HTTPTypes does not name.
extension HTTPField.Name {
    static let xRequestID = Self("X-Request-ID")!
    static let xTotalCount = Self("X-Total-Count")!
    static let cacheStatus = Self("Cache-Status")!
    static let link = Self("Link")!
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let forwarded = Self("Forwarded")!
    static let lastEventID = Self("Last-Event-ID")!
}
