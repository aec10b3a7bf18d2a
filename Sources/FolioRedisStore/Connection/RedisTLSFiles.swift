import FolioRedis
import NIOSSL

/// The PEM files of `cache.redis` (`caFile`, `certFile`, `keyFile`) for a `rediss://` URL.
///
/// The server's certificate is checked against `caFile`'s authorities when it is set (a private
/// CA), else against the system's trust roots; and always against the URL's host name. With
/// `certFile` and `keyFile`, the client shows that certificate (mutual TLS). `configuration()`
/// parses the files and builds a context with them, so a file the TLS library cannot read, or
/// a key that is not the certificate's (either fails every connection), stops the start; each
/// new connection reads them again, so renewed files apply from the next reconnect.
public struct RedisTLSFiles: Sendable, Equatable {
    public var caFile: String?
    public var certFile: String?
    public var keyFile: String?

    public init(caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil) {
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
    }

    /// The client's TLS settings, once every file was read and checked.
    public func configuration() throws(RedisTLSFileError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        func parsed<T>(_ key: String, _ file: String, _ problem: String, _ parse: () throws -> T)
            throws(RedisTLSFileError) -> T
        {
            do {
                return try parse()
            } catch {
                throw RedisTLSFileError(key: key, file: file, problem: "\(problem) (\(error))")
            }
        }
        if let caFile {
            // Throws when there is no certificate, or one that does not parse.
            _ = try parsed("caFile", caFile, "a certificate in it cannot be parsed") {
                try NIOSSLCertificate.fromPEMFile(caFile)
            }
            tls.trustRoots = .file(caFile)
        }
        if let files = clientCertificate {
            _ = try parsed("certFile", files.chain, "a certificate in it cannot be parsed") {
                try NIOSSLCertificate.fromPEMFile(files.chain)
            }
            _ = try parsed("keyFile", files.key, "the private key cannot be parsed") {
                try NIOSSLPrivateKey(file: files.key, format: .pem)
            }
            // The TLS library refuses a key that does not match the chain's first certificate.
            _ = try parsed("keyFile", files.key, "not the private key of certFile's certificate") {
                try NIOSSLContext(configuration: try files.apply(to: tls))
            }
        }
        return tls
    }

    /// `certFile` and `keyFile`, when both are set (the loader accepts one only with the other).
    public var clientCertificate: RedisClientCertificateFiles? {
        guard let certFile, let keyFile else { return nil }
        return RedisClientCertificateFiles(chain: certFile, key: keyFile)
    }
}

/// A PEM file of `cache.redis` (`caFile`, `certFile`, `keyFile`) the TLS library cannot use.
public struct RedisTLSFileError: Error, CustomStringConvertible {
    /// The file's key under `cache.redis`.
    public let key: String
    public let file: String
    public let problem: String

    public var description: String { "cache.redis.\(key): \(file): \(problem)" }
}
