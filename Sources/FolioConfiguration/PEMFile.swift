import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The check a PEM file of the config (`cache.redis.caFile`, `certFile`, `keyFile`) gets when
/// the config is read, so a wrong path fails the start (or the reload, or `folio validate`)
/// with its position, not the first TLS handshake much later. It reads regular files only
/// (links followed: Kubernetes mounts a Secret's files as links into `..data/`), without
/// blocking and at most `maxBytes` of them; the certificates and keys themselves are parsed
/// when the store is built (`SharedSnapshotStore.tls`), which has the TLS library.
enum PEMFile {
    /// A certificate bundle is a few hundred KiB at most (Mozilla's whole set is about 220 KiB).
    static let maxBytes = 4 << 20

    /// What a file must hold.
    enum Kind {
        /// One or more certificates: a CA bundle, or a client's chain (leaf first).
        case certificates
        /// One private key, unencrypted.
        case privateKey
    }

    /// What is wrong with `file` as a PEM file of `kind`, or nil when nothing is.
    static func problem(file: String, kind: Kind) -> String? {
        // The type is checked before opening (opening a device may have effects: a terminal
        // becoming the controlling one, a watchdog armed), and again on what was opened, in
        // case the path changed in between. Non-blocking: a file that blocks on read
        // (`/proc/kmsg`) can neither hang the check nor pass it.
        var status = stat()
        guard stat(file, &status) == 0 else { return "cannot open the file (\(String(cString: strerror(errno))))" }
        guard status.st_mode & S_IFMT == S_IFREG else { return "not a regular file" }
        let descriptor = open(file, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return "cannot open the file (\(String(cString: strerror(errno))))" }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else {
            return "cannot read the file (\(String(cString: strerror(errno))))"
        }
        guard status.st_mode & S_IFMT == S_IFREG else { return "not a regular file" }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while data.count <= maxBytes {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return "cannot read the file (\(String(cString: strerror(errno))))" }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
        }
        guard data.count <= maxBytes else {
            return "larger than \(maxBytes >> 20) MiB: not a PEM file of keys or certificates"
        }
        func contains(_ text: String) -> Bool { data.range(of: Data(text.utf8)) != nil }
        switch kind {
        case .certificates:
            guard contains("-----BEGIN CERTIFICATE-----") else {
                return "no PEM certificate in it (-----BEGIN CERTIFICATE-----)"
            }
        case .privateKey:
            // PKCS #8 (`PRIVATE KEY`), or the older `RSA PRIVATE KEY` and `EC PRIVATE KEY`.
            guard contains("-----BEGIN "), contains(" PRIVATE KEY-----") else {
                return "no PEM private key in it (-----BEGIN PRIVATE KEY-----, or RSA or EC PRIVATE KEY)"
            }
            // A passphrase would have to be in the config or the environment too: the file's
            // own permissions (a Secret mounted for this container) protect it instead.
            guard !contains("-----BEGIN ENCRYPTED PRIVATE KEY-----"), !contains("Proc-Type: 4,ENCRYPTED") else {
                return "an encrypted private key: Folio reads unencrypted keys only (protect the file instead)"
            }
        }
        return nil
    }
}
