import Foundation

/// What replicas tell each other on the events channel (`keyPrefix` + `events`).
struct SharedStoreEvent: Codable, Equatable, Sendable {
    enum Kind: String, Codable, Sendable {
        /// A fill stored the newest snapshot of `key`: its waiters may load it.
        case stored
        /// A fill of `key` failed: its waiters may read why.
        case failed
        /// Every snapshot of `route` was dropped (purge, unsafe method): stop serving local
        /// copies as current.
        case dropped
    }

    var kind: Kind
    /// The replica that sent it (it acts on its own events directly).
    var origin: String
    /// The cache key's hash (`stored`, `failed`).
    var key: String?
    /// The route (`dropped`), and how long its dropped snapshots answer pinned links.
    var route: String?
    var retentionMilliseconds: Int64?

    var encoded: [UInt8] { Array((try? JSONEncoder().encode(self)) ?? Data()) }

    static func decode(_ bytes: [UInt8]) -> SharedStoreEvent? {
        try? JSONDecoder().decode(SharedStoreEvent.self, from: Data(bytes))
    }
}
