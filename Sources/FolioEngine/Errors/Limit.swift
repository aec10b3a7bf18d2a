/// One of the configured limits (`limits:`; SECURITY.md, "Limits"), named by its config key.
///
/// An error that breaches a limit carries it, so the gateway counts the breach in
/// `folio_limit_breaches_total{limit="KEY"}` wherever the error surfaces (and the operator
/// knows which key to raise). A closed set: the label never grows with traffic.
public struct Limit: Hashable, Sendable, CustomStringConvertible {
    /// The key under `limits:` in the config.
    public let key: String

    private init(_ key: String) { self.key = key }

    public var description: String { key }

    public static let maxUpstreamBytes = Limit("maxUpstreamBytes")
    public static let maxItems = Limit("maxItems")
    public static let maxJSONDepth = Limit("maxJSONDepth")
    public static let upstreamTimeout = Limit("upstreamTimeout")
    public static let connectTimeout = Limit("connectTimeout")
    public static let crawlTimeout = Limit("crawlTimeout")
    public static let maxURLBytes = Limit("maxURLBytes")
    public static let maxHeaderBytes = Limit("maxHeaderBytes")
    public static let maxHeaderCount = Limit("maxHeaderCount")
    public static let maxRequestBodyBytes = Limit("maxRequestBodyBytes")

    /// Every limit, for metrics registered up front.
    public static let all: [Limit] = [
        .maxUpstreamBytes, .maxItems, .maxJSONDepth, .upstreamTimeout, .connectTimeout, .crawlTimeout,
        .maxURLBytes, .maxHeaderBytes, .maxHeaderCount, .maxRequestBodyBytes,
    ]
}
