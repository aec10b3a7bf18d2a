/// Redis Cluster's hash slots (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/):
/// CRC16 (XMODEM) of the key, or of its hash tag (the text between the first `{` and the next
/// `}`, when not empty), modulo 16,384.
public enum HashSlot {
    public static let count = 16384

    /// The slot of `key`.
    public static func of(_ key: some Collection<UInt8>) -> Int {
        let bytes = Array(key)
        var hashed = bytes[...]
        if let open = bytes.firstIndex(of: UInt8(ascii: "{")),
            let close = bytes[(open + 1)...].firstIndex(of: UInt8(ascii: "}")), close > open + 1
        {
            hashed = bytes[(open + 1)..<close]
        }
        return Int(crc16(hashed)) % count
    }

    public static func of(_ key: String) -> Int { of(Array(key.utf8)) }

    /// The key a command acts on, as a cluster routes it: the script's first key for
    /// `EVAL`/`EVALSHA` (none without keys), the channel of `PUBLISH`/`SPUBLISH`, else the
    /// first argument; nil for commands without one (`PING`, `CLUSTER …`).
    public static func key(of command: [[UInt8]]) -> [UInt8]? {
        guard let name = command.first.map({ String(decoding: $0, as: UTF8.self).uppercased() }) else { return nil }
        switch name {
        case "EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO":
            guard command.count > 3, let keys = Int(String(decoding: command[2], as: UTF8.self)), keys > 0 else {
                return nil
            }
            return command[3]
        case "PING", "CLUSTER", "INFO", "ASKING", "READONLY", "AUTH", "SELECT", "SCRIPT", "CONFIG", "DBSIZE",
            "FLUSHALL", "FLUSHDB", "ROLE", "TIME", "WAIT":
            return nil
        default:
            return command.count > 1 ? command[1] : nil
        }
    }

    static func crc16(_ bytes: some Sequence<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        return crc
    }
}
