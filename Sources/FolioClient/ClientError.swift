import Foundation

/// Why a page, section index or feed step could not be loaded.
///
/// An opaque struct over a private enum (the house habit): match on `code` or `status`; the
/// `description` says what happened in words.
public struct ClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable short name of the kind, usable as a log or metric label.
    public enum Code: String, Sendable {
        /// Folio answered a problem (docs/API.md, "Errors") or another error status.
        case status
        /// The snapshot is gone (410); the list resets itself to `Link rel="first"`.
        case snapshotGone
        /// The answer is not the page shape the dialect describes.
        case malformed
        /// The transport failed (connection refused, timed out, …).
        case transport
    }

    public let code: Code
    /// With `transport`: what kind of failure, so an app can tell "offline" (show a banner, wait
    /// for the network) from "timed out" (retry) from "refused" (the server is down).
    public let reason: TransportFailure?
    /// The HTTP status, when there was an answer.
    public let status: Int?
    /// The problem's `detail` (or what did not parse).
    public let detail: String
    /// With `snapshotGone`: the `Link rel="first"` of the 410, the current list's first page.
    public let first: String?

    init(_ code: Code, status: Int? = nil, detail: String, first: String? = nil, reason: TransportFailure? = nil) {
        self.code = code
        self.reason = reason
        self.status = status
        self.detail = detail
        self.first = first
    }

    public var description: String {
        if let status { return "\(code.rawValue) \(status): \(detail)" }
        return "\(code.rawValue): \(detail)"
    }

    static func malformed(_ detail: String) -> ClientError { ClientError(.malformed, detail: detail) }

    static func transport(_ error: any Error) -> ClientError {
        let urlError = error as? URLError
        return ClientError(
            .transport, detail: urlError.map(describe) ?? "\(error)", reason: TransportFailure(urlError?.code))
    }

    /// libcurl's words when there are some ("Failed to connect to 127.0.0.1 port 8080 …: Couldn't
    /// connect to server"), else Foundation's, else the code.
    private static func describe(_ error: URLError) -> String {
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        let text = underlying?.userInfo[NSLocalizedDescriptionKey] ?? error.userInfo[NSLocalizedDescriptionKey]
        return (text as? String).map { "\($0) (URLError \(error.code.rawValue))" } ?? "URLError \(error.code.rawValue)"
    }

    /// An error status: the problem+json `detail` (or `title`) when the body is one.
    static func status(_ status: Int, body: Data, first: String?) -> ClientError {
        struct Problem: Decodable {
            var title: String?
            var detail: String?
        }
        let problem = try? JSONDecoder().decode(Problem.self, from: body)
        let detail = problem?.detail ?? problem?.title ?? "HTTP \(status)"
        return ClientError(status == 410 ? .snapshotGone : .status, status: status, detail: detail, first: first)
    }
}

/// Why a request got no answer (`ClientError.reason`), from the `URLError` underneath.
public enum TransportFailure: String, Sendable {
    /// No network (`notConnectedToInternet`, `dataNotAllowed`, `internationalRoamingOff`).
    case offline
    /// The request timed out (`timedOut`).
    case timedOut
    /// The host could not be reached (`cannotConnectToHost`, `cannotFindHost`, `dnsLookupFailed`):
    /// a refused connection, a wrong host.
    case cannotConnect
    /// The connection dropped mid-request (`networkConnectionLost`).
    case connectionLost
    /// Anything else (TLS, a transport's own error).
    case other

    init(_ code: URLError.Code?) {
        switch code {
        case .notConnectedToInternet?, .dataNotAllowed?, .internationalRoamingOff?: self = .offline
        case .timedOut?: self = .timedOut
        case .cannotConnectToHost?, .cannotFindHost?, .dnsLookupFailed?: self = .cannotConnect
        case .networkConnectionLost?: self = .connectionLost
        default: self = .other
        }
    }
}
