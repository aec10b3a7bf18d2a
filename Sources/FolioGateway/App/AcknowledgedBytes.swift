import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// How many bytes sent on a TCP connection its peer has acknowledged (Linux's `TCP_INFO`,
/// `tcpi_bytes_acked`): what a slow client has taken so far. Its progress shows even while
/// NIO's writes stand still behind a kernel send buffer megabytes deep, which a client reading
/// at a few hundred kB/s empties only every few seconds.
enum AcknowledgedBytes {
    /// Nil where the platform or the channel has no such count (then the caller falls back).
    /// Call on the channel's event loop.
    static func of(_ channel: any Channel) -> UInt64? {
        #if os(Linux)
            guard let provider = channel as? any SocketOptionProvider else { return nil }
            let info: EventLoopFuture<TCPInfoPrefix> = provider.unsafeGetSocketOption(
                level: SocketOptionLevel(IPPROTO_TCP), name: SocketOptionName(TCP_INFO))
            var acknowledged: UInt64?
            // On the event loop the option is read at once, so the future is already complete.
            info.assumeIsolatedUnsafeUnchecked().whenSuccess { acknowledged = $0.bytesAcknowledged }
            return acknowledged
        #else
            return nil
        #endif
    }

    /// The first 128 bytes of Linux's `struct tcp_info` (`linux/tcp.h`; glibc's copy stops
    /// earlier). Its layout only grows at the end, so the offset holds on every kernel since
    /// 4.1; the kernel copies as much as is asked for.
    struct TCPInfoPrefix: Sendable {
        var words:
            (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
            )

        /// `tcpi_bytes_acked`, at byte 120.
        var bytesAcknowledged: UInt64 { words.15 }
    }
}
