import Foundation

/// Why a replica's fill failed, as it records it for the replicas that waited
/// (docs/SHARED-STORE.md, "One fill for all replicas"): the error's text, and when the upstream
/// answered with an error, that answer (status, end-to-end headers as name and value pairs,
/// capped body), which the waiters pass back as the filler does.
public struct FillFailure: Codable, Equatable, Sendable {
    public var detail: String
    public var status: Int?
    public var headers: [[String]]?
    public var body: Data?

    public init(detail: String, status: Int? = nil, headers: [[String]]? = nil, body: Data? = nil) {
        self.detail = detail
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A record as `encoded` wrote it; any other bytes (an older replica's plain text) are
    /// the detail.
    public init(_ recorded: [UInt8]) {
        self =
            (try? JSONDecoder().decode(FillFailure.self, from: Data(recorded)))
            ?? FillFailure(detail: String(decoding: recorded, as: UTF8.self))
    }

    public var encoded: [UInt8] { Array((try? JSONEncoder().encode(self)) ?? Data(detail.utf8)) }
}
