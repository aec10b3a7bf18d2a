import FolioEngine

/// Why an upstream exchange failed, as Folio answers it (docs/API.md, "Errors").
///
/// Opaque on purpose: switch on `code` (stable, also a metric label), never on cases.
/// The client-facing detail never names the upstream URL or the underlying library error;
/// those go to `description`, for logs only.
public struct UpstreamError: Error, Sendable, CustomStringConvertible {
    private enum Kind: Sendable {
        case unreachable, connectTimeout, timeout, redirectRefused, tooManyRedirects, bodyTooLarge, failed
        case unexpectedStatus(String)
    }

    private let kind: Kind
    /// What happened, for logs (may name hosts and library errors).
    let reason: String

    private init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var code: String {
        switch kind {
        case .unreachable: "upstream-unreachable"
        case .connectTimeout: "upstream-connect-timeout"
        case .timeout: "upstream-timeout"
        case .redirectRefused: "upstream-redirect-refused"
        case .tooManyRedirects: "upstream-too-many-redirects"
        case .bodyTooLarge: "upstream-body-too-large"
        case .failed: "upstream-failed"
        case .unexpectedStatus: "upstream-unexpected-status"
        }
    }

    /// 504 for the two timeouts, 502 for everything else.
    public var status: Int {
        switch kind {
        case .connectTimeout, .timeout: 504
        default: 502
        }
    }

    /// The configured limit this failure breached, if any.
    public var limit: Limit? {
        switch kind {
        case .connectTimeout: .connectTimeout
        case .timeout: .upstreamTimeout
        case .bodyTooLarge: .maxUpstreamBytes
        default: nil
        }
    }

    public var folioError: FolioError {
        switch kind {
        case .unreachable: .upstreamUnreachable
        case .connectTimeout: .upstreamConnectTimeout
        case .timeout: .upstreamTimeout
        case .redirectRefused: .upstreamRedirectRefused
        case .tooManyRedirects: .upstreamTooManyRedirects
        case .bodyTooLarge: .upstreamBodyTooLarge
        case .failed: .upstreamFailed()
        case .unexpectedStatus(let detail): .upstreamUnexpectedStatus(detail)
        }
    }

    public var description: String { "\(status) \(code): \(reason)" }
}

extension UpstreamError {
    static func unreachable(_ reason: String) -> Self { Self(.unreachable, reason) }
    static func connectTimeout(_ reason: String) -> Self { Self(.connectTimeout, reason) }
    static func timeout(_ reason: String) -> Self { Self(.timeout, reason) }
    static func redirectRefused(_ reason: String) -> Self { Self(.redirectRefused, reason) }
    static func tooManyRedirects(_ reason: String) -> Self { Self(.tooManyRedirects, reason) }
    static func bodyTooLarge(_ reason: String) -> Self { Self(.bodyTooLarge, reason) }
    static func failed(_ reason: String) -> Self { Self(.failed, reason) }

    /// Throws unless a non-2xx answer of a list's GET may be passed to the client: a 4xx or 5xx
    /// (docs/API.md, "Errors"). A 1xx or 3xx reaching this point is not an answer about the list (redirects
    /// Folio follows never get here, nor does a 304 to a conditional request): 502.
    static func checkPassable(_ head: UpstreamHead, url: String) throws {
        guard head.status < 400 else { return }
        let detail =
            switch head.status {
            case 304: "The upstream answered 304 Not Modified to a request without validators."
            case 300..<400 where Redirect.isRedirect(head.status):
                "The upstream answered \(head.status) without a Location to follow."
            default: "The upstream answered \(head.status), which is neither a list nor an error to pass on."
            }
        throw Self(.unexpectedStatus(detail), "\(url) answered \(head.status)")
    }
}
