import FolioConfiguration
import NIOCore
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listener that could not bind its address (a port in use, a host that does not resolve), said in the one clear line
/// docs/OPERATIONS.md ("Signals") promises for start-up errors: which key, which address, why.
public struct ListenerError: Error, CustomStringConvertible {
    /// The config key of the listener: `server.listen` or `server.admin`.
    public let key: String
    public let address: ListenAddress
    public let reason: String

    public var description: String { "\(key): cannot listen on \(address): \(reason)" }

    /// Runs a listener (`body`), turning its socket errors into a `ListenerError`; any other
    /// error passes unchanged.
    static func naming(_ key: String, _ address: ListenAddress, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as IOError {
            throw ListenerError(key: key, address: address, reason: String(cString: strerror(error.errnoCode)))
        } catch let error as SocketAddressError {
            let reason: String
            if case .unknown = error { reason = "the host does not resolve" } else { reason = "\(error)" }
            throw ListenerError(key: key, address: address, reason: reason)
        }
    }
}

/// A listener other than the client one (the admin endpoints), run under its config key.
struct NamedListener: Service {
    let key: String
    let address: ListenAddress
    let service: any Service

    func run() async throws {
        try await ListenerError.naming(key, address) { try await service.run() }
    }
}
