import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The check a certificate file of the config (`cache.redis.caFile`) gets when the config is
/// read, so a wrong path fails the start (or the reload, or `folio validate`) with its
/// position, not the first TLS handshake much later. It reads regular files only (links
/// followed: Kubernetes mounts a Secret's files as links into `..data/`), without blocking and
/// at most `maxBytes` of them; the certificates themselves are parsed when the store is built
/// (`SharedSnapshotStore.make`), which has the TLS library.
enum PEMCertificates {
    /// A certificate bundle is a few hundred KiB at most (Mozilla's whole set is about 220 KiB).
    static let maxBytes = 4 << 20

    /// What is wrong with `file` as a PEM certificate bundle, or nil when nothing is.
    static func problem(file: String) -> String? {
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
        guard data.count <= maxBytes else { return "larger than \(maxBytes >> 20) MiB: not a certificate bundle" }
        guard data.range(of: Data("-----BEGIN CERTIFICATE-----".utf8)) != nil else {
            return "no PEM certificate in it (-----BEGIN CERTIFICATE-----)"
        }
        return nil
    }
}
