/// Caps on one upstream list (SECURITY.md, "Limits"), applied while indexing so an oversized or
/// hostile body fails early instead of exhausting memory.
public struct IndexLimits: Sendable, Hashable {
    /// Total bytes over all bodies fed to one indexer (`maxUpstreamBytes`); above `UInt32.max` it
    /// acts as `UInt32.max`, since element offsets are 32-bit.
    public var maxBytes: Int
    /// Total elements over all bodies (`maxItems`).
    public var maxItems: Int
    /// Nesting depth of arrays and objects (`maxJSONDepth`); the top-level container is depth 1.
    public var maxDepth: Int

    /// The largest `maxBytes` worth setting (`maxUpstreamBytes`' ceiling, and what a list read
    /// back from a shared store may hold): 4 GiB, past which 32-bit offsets cannot go.
    public static let maxBytesCeiling = 4 << 30

    public init(maxBytes: Int = 256 << 20, maxItems: Int = 5_000_000, maxDepth: Int = 128) {
        self.maxBytes = maxBytes
        self.maxItems = maxItems
        self.maxDepth = maxDepth
    }

    /// The byte cap the indexer enforces.
    var effectiveMaxBytes: Int { Swift.max(0, Swift.min(maxBytes, Int(UInt32.max))) }
}
