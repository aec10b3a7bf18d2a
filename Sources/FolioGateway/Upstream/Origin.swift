import Foundation

/// Scheme, host and port of a URL: the unit redirects are allowed within
/// (docs/API.md, "Proxy headers").
///
/// Only used when a 3xx arrives, so Foundation's URL parser (the one AsyncHTTPClient itself
/// uses to pick the connection target) is fine here and keeps both readings in agreement.
struct Origin: Hashable, Sendable {
    let scheme: String
    let host: String
    let port: Int

    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            return nil
        }
        guard let port = url.port ?? Self.defaultPort(scheme) else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    init?(_ string: String) {
        guard let url = URL(string: string) else { return nil }
        self.init(url)
    }

    private static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}
