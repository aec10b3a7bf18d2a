import NIOCore

/// Receives an upstream body chunk by chunk while it downloads, so nothing needs the whole
/// body in memory before it is looked at (e.g. a streaming JSON indexer).
///
/// A sink itself need not be `Sendable`: it is used by one task at a time, but that task may
/// not be the caller's (the download races a timeout in a child task).
public protocol UpstreamBodySink: SendableMetatype {
    /// Takes the next decoded chunk; the next one is not read before this returns. Throwing
    /// aborts the download; `UpstreamClient.get` rethrows the error unchanged.
    mutating func receive(_ chunk: ByteBuffer) async throws

    /// A wait for the sink's own failure, found away from `receive` (a background scan of what
    /// it was given), or nil if the sink has none. It runs beside the download, which is
    /// cancelled when it returns an error: a stalled upstream must not hold a fill that has
    /// already failed. It returns nil when cancelled.
    var failureWait: (@Sendable () async -> (any Error)?)? { get }
}

extension UpstreamBodySink {
    public var failureWait: (@Sendable () async -> (any Error)?)? { nil }
}
