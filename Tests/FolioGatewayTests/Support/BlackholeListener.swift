#if canImport(Glibc)
    import Glibc

    /// A loopback listener whose accept queue is full and never drained: the kernel drops further
    /// SYNs, so a connection attempt hangs until the client gives up. That is what an upstream
    /// behind a black-holing firewall looks like, and how a connect timeout is reached on loopback.
    final class BlackholeListener: @unchecked Sendable {
        let port: Int
        private var sockets: [Int32] = []

        init() throws {
            let (listener, port) = try LoopbackSocket.bind(listening: 0)
            sockets.append(listener)
            self.port = port
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let length = socklen_t(MemoryLayout<sockaddr_in>.size)
            // A backlog of 0 still queues one connection: fill it (and one more attempt), so every
            // later SYN is dropped.
            for blocking in [true, false] {
                let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                if !blocking { _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL) | O_NONBLOCK) }
                _ = withUnsafePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) }
                }
                sockets.append(filler)
            }
        }

        var url: String { "http://127.0.0.1:\(port)" }

        func close() {
            for socket in sockets { _ = Glibc.close(socket) }
            sockets = []
        }
    }
#endif
