#if canImport(Glibc)
    import Glibc

    /// A loopback port that refuses every connection and that no other server can take while it
    /// is held: a TCP socket bound without `SO_REUSEADDR` and never listening. Stopping a test
    /// upstream frees its port, which a test running in parallel may bind a moment later (and
    /// answer 404 where a refusal was expected); a held, bound port cannot be handed out again.
    /// Keep it alive for the whole test (`defer { withExtendedLifetime(port) {} }`): the socket is
    /// closed when the object goes.
    final class RefusingPort: @unchecked Sendable {
        let port: Int
        private let socket: Int32

        init() throws {
            (socket, port) = try LoopbackSocket.bind(listening: nil)
        }

        var url: String { "http://127.0.0.1:\(port)" }

        deinit {
            _ = Glibc.close(socket)
        }
    }
    /// A TCP socket bound to 127.0.0.1 on a port the kernel picks, listening with `backlog` when
    /// given: the socket and its port.
    enum LoopbackSocket {
        static func bind(listening backlog: Int32?) throws -> (socket: Int32, port: Int) {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    Glibc.bind(socket, address, length) == 0 && (backlog.map { listen(socket, $0) == 0 } ?? true)
                        && getsockname(socket, address, &length) == 0
                }
            }
            guard bound else {
                _ = Glibc.close(socket)
                throw TestFailure("cannot bind a loopback socket")
            }
            return (socket, Int(UInt16(bigEndian: address.sin_port)))
        }
    }
#endif
