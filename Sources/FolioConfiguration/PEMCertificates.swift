import Foundation

/// The check a certificate file of the config (`cache.redis.caFile`) gets when the config is
/// read, so a wrong path fails the start (or the reload, or `folio check`) with its position,
/// not the first TLS handshake much later. It reads regular files only, and at most
/// `maxBytes` of them; the certificates themselves are parsed by the TLS library.
enum PEMCertificates {
    /// A certificate bundle is a few hundred KiB at most (Mozilla's whole set is about 220 KiB).
    static let maxBytes = 4 << 20

    /// What is wrong with `file` as a PEM certificate bundle, or nil when nothing is.
    static func problem(file: String) -> String? {
        // Links followed: Kubernetes mounts a Secret's files as links into `..data/`.
        let target = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: target) else {
            return "cannot read the file (no such file, or no permission)"
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { return "not a regular file" }
        // Read with a cap, not by the size the file claims (files under /proc claim 0).
        guard let handle = FileHandle(forReadingAtPath: target) else { return "cannot read the file" }
        defer { try? handle.close() }
        let data: Data
        do {
            // An empty file reads as nil.
            data = try handle.read(upToCount: maxBytes + 1) ?? Data()
        } catch {
            return "cannot read the file"
        }
        guard data.count <= maxBytes else { return "larger than \(maxBytes >> 20) MiB: not a certificate bundle" }
        guard data.range(of: Data("-----BEGIN CERTIFICATE-----".utf8)) != nil else {
            return "no PEM certificate in it (-----BEGIN CERTIFICATE-----)"
        }
        return nil
    }
}
