import Crypto

/// SHA-256 digests of short texts as lowercase hex: cache key hashes, a route's list variant,
/// credential partitions. One place for the field encoding (each field as `LENGTH:TEXT`, so
/// no two lists of fields run together) and the hex form.
public enum FieldDigest {
    /// The first `bytes` bytes of SHA-256 over `fields`, each written as `LENGTH:TEXT`.
    public static func hex(of fields: [String], bytes: Int) -> String {
        var hasher = SHA256()
        for field in fields { hasher.update(data: Array("\(field.utf8.count):\(field)".utf8)) }
        return hex(hasher.finalize(), bytes: bytes)
    }

    /// The first `bytes` bytes of `digest`.
    public static func hex(_ digest: SHA256.Digest, bytes: Int) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(2 * bytes)
        for byte in digest.prefix(bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
