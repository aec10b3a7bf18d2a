import FolioEngine
import Foundation

/// A `StoredList` as Redis values: the elements as one JSON array cut into parts, and a small
/// JSON metadata record. Decoding indexes the parts again and recomputes the token: a snapshot
/// whose bytes do not give the token it claims (a torn write, a part evicted, tampering) is
/// refused, never served.
public enum RedisSnapshotCodec {
    /// What a list read back may be: another replica stored it under its own `limits:` (a
    /// reload or a rolling deploy can make them differ), so neither depth nor item count is
    /// capped; bytes are capped at the largest `maxUpstreamBytes` a config may set, so a
    /// metadata record claiming more reserves nothing. The indexer does not recurse, and the
    /// token check still refuses any list whose bytes were changed.
    public static let readBackLimits = IndexLimits(
        maxBytes: IndexLimits.maxBytesCeiling, maxItems: .max, maxDepth: .max)

    /// Largest part written: values of a few MiB keep Redis responsive to other clients.
    public static let partBytes = 4 << 20

    struct Meta: Codable, Equatable {
        var version = 1
        var token: String
        var sort: [String]
        var count: Int
        var bytes: Int
        var parts: Int
        var storedAt: Int64
        var lifetime: Int64
        var etag: String?
        var lastModified: String?
        var mustRevalidate: Bool
        /// Added after version 1 was written: optional, so metadata of replicas that do not
        /// write it still reads (and they ignore it).
        var initialAge: Int64?
    }

    /// Metadata as Folio writes it, with every number within what a filler can write: a
    /// changed record must not make a replica build a key per claimed part, allocate for them,
    /// or overflow a time (the token check covers the parts' bytes, not these fields).
    static func decodeMeta(_ meta: [UInt8]) -> Meta? {
        guard let decoded = try? JSONDecoder().decode(Meta.self, from: Data(meta)), decoded.version == 1,
            decoded.bytes >= 0, decoded.bytes <= IndexLimits.maxBytesCeiling + 2,
            decoded.count >= 0, decoded.count <= decoded.bytes,
            // Parts are never empty; a filler cuts them at `partBytes` (4 MiB: at most 1,025).
            decoded.parts >= 0, decoded.parts <= decoded.bytes, decoded.parts <= maxParts,
            (0...maxMilliseconds).contains(decoded.storedAt), (0...maxMilliseconds).contains(decoded.lifetime)
        else { return nil }
        return decoded
    }

    /// The most parts a record may claim: 64 times what a list within `maxBytesCeiling` has at
    /// `partBytes`, so a key name per part (`retire`) stays a few MiB however it was changed.
    static let maxParts = 1 << 16
    /// A time or duration in milliseconds that a filler records: under 10,000 years.
    static let maxMilliseconds: Int64 = 10_000 * 366 * 24 * 3600 * 1000

    /// A recorded upstream `Age` within what a filler records (0 to 2^31 s): a changed record
    /// can make no `Age` negative or overflow a sum.
    static func initialAge(_ milliseconds: Int64?) -> Int64 {
        min(max(0, milliseconds ?? 0), Int64(1 << 31) * 1000)
    }

    /// The size of the list a metadata record claims (what reading it back holds in memory,
    /// a few times over), or nil when the record is not Folio's.
    public static func listBytes(_ meta: [UInt8]) -> Int? { decodeMeta(meta)?.bytes }

    /// The metadata and the parts of `stored`.
    public static func encode(_ stored: StoredList, partBytes: Int = partBytes) -> (meta: [UInt8], parts: [[UInt8]]) {
        var body: [UInt8] = [UInt8(ascii: "[")]
        body.reserveCapacity(stored.list.bytes.count + 2)
        for index in 0..<stored.list.count {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            let range = stored.list.range(of: index)
            body.append(contentsOf: stored.list.bytes[range])
        }
        body.append(UInt8(ascii: "]"))
        let size = max(1, partBytes)
        let parts = stride(from: 0, to: body.count, by: size).map { Array(body[$0..<min($0 + size, body.count)]) }
        let meta = Meta(
            token: stored.token, sort: stored.sort, count: stored.list.count, bytes: body.count, parts: parts.count,
            storedAt: stored.storedAtMilliseconds, lifetime: stored.lifetimeMilliseconds, etag: stored.etag,
            lastModified: stored.lastModified, mustRevalidate: stored.mustRevalidate,
            initialAge: stored.initialAgeMilliseconds == 0 ? nil : stored.initialAgeMilliseconds)
        // Encoding a struct of strings, numbers and booleans cannot fail.
        let json = (try? JSONEncoder().encode(meta)) ?? Data()
        return (Array(json), parts)
    }

    /// The metadata's token, part count and when its filler stored it, or nil when it is not
    /// Folio's metadata.
    public static func header(_ meta: [UInt8]) -> (token: String, parts: Int, storedAtMilliseconds: Int64)? {
        guard let decoded = decodeMeta(meta) else { return nil }
        return (decoded.token, decoded.parts, decoded.storedAt)
    }

    /// The freshness the metadata records, when it is Folio's metadata of `token`.
    public static func freshness(_ meta: [UInt8], token: String) -> StoredFreshness? {
        guard let decoded = decodeMeta(meta), decoded.token == token else { return nil }
        return StoredFreshness(
            storedAtMilliseconds: decoded.storedAt, lifetimeMilliseconds: decoded.lifetime, etag: decoded.etag,
            lastModified: decoded.lastModified, mustRevalidate: decoded.mustRevalidate,
            initialAgeMilliseconds: Self.initialAge(decoded.initialAge))
    }

    /// The stored list, or nil when the metadata is not Folio's, a part is missing, the list
    /// breaks `limits`, or the elements do not give the token (or count, or size) the metadata
    /// claims.
    public static func decode(meta: [UInt8], parts: [[UInt8]?], limits: IndexLimits = readBackLimits) async
        -> StoredList?
    {
        guard var decoder = Decoder(meta: meta, limits: limits), parts.count == decoder.parts else { return nil }
        for part in parts {
            guard let part, await decoder.append(part) else { return nil }
        }
        return await decoder.finish()
    }

    /// Indexes a stored list part by part as the parts arrive (on the fill workers, earlier
    /// parts hashed while the next is scanned), then checks it against its metadata.
    ///
    /// Holds its indexer in a box, so it is used as one value (`var`, then `finish`).
    public struct Decoder: Sendable {
        private let meta: Meta
        private let box: IndexerBox
        private var received = 0
        private var failed = false

        /// Nil when `meta` is not Folio's metadata, or claims a list larger than `limits`
        /// allow (`readBackLimits` in the gateway), before anything is reserved for it.
        public init?(meta: [UInt8], limits: IndexLimits = readBackLimits) {
            guard let meta = RedisSnapshotCodec.decodeMeta(meta), meta.bytes <= limits.maxBytes,
                meta.count <= limits.maxItems
            else { return nil }
            self.meta = meta
            box = IndexerBox(
                ListIndexer(
                    items: .root,
                    limits: IndexLimits(maxBytes: meta.bytes, maxItems: limits.maxItems, maxDepth: limits.maxDepth),
                    sort: meta.sort))
            box.reserve(additionalBytes: meta.bytes)
        }

        /// The token the metadata claims and how many parts it has.
        public var token: String { meta.token }
        public var parts: Int { meta.parts }

        /// Indexes the next part; false once the bytes are not a list of the claimed size.
        public mutating func append(_ part: [UInt8]) async -> Bool {
            guard !failed else { return false }
            received += part.count
            do {
                try await box.feed(part)
            } catch {
                failed = true
            }
            return !failed
        }

        /// The list, when every byte arrived and the elements give the claimed token and count.
        public consuming func finish() async -> StoredList? {
            if !failed, received == meta.bytes { failed = (try? await box.endBody()) == nil }
            guard !failed, received == meta.bytes,
                let (list, token) = try? await FillWorkers.shared.run({ [box] in try box.finish() }),
                token == meta.token, list.count == meta.count
            else { return nil }
            return StoredList(
                list: list, token: token, sort: meta.sort, storedAtMilliseconds: meta.storedAt,
                lifetimeMilliseconds: meta.lifetime, etag: meta.etag, lastModified: meta.lastModified,
                mustRevalidate: meta.mustRevalidate,
                initialAgeMilliseconds: RedisSnapshotCodec.initialAge(meta.initialAge))
        }
    }
}
