import Testing

@testable import FolioRedis

/// Hash slots and the key each command is routed by (Redis Cluster's specification).
@Suite("Hash slots")
struct HashSlotTests {
    @Test func slotsAreCRC16OfTheKeyOrItsHashTag() {
        #expect(HashSlot.crc16(Array("123456789".utf8)) == 0x31C3, "the specification's check value")
        #expect(HashSlot.of("foo") == 12182)
        #expect(HashSlot.of("{user1000}.following") == HashSlot.of("{user1000}.followers"))
        #expect(HashSlot.of("{user1000}.following") == HashSlot.of("user1000"))
        #expect(HashSlot.of("foo{}{bar}") == HashSlot.of("foo{}{bar}"), "an empty tag hashes the whole key")
        #expect(HashSlot.of("foo{}{bar}") != HashSlot.of("bar"))
        #expect(HashSlot.of("foo{{bar}}zap") == HashSlot.of("{bar"))
    }

    @Test func commandsAreRoutedByTheirKey() {
        func key(_ words: [String]) -> String? {
            HashSlot.key(of: words.map { Array($0.utf8) }).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(key(["GET", "a"]) == "a")
        #expect(key(["EVAL", "return 1", "2", "k1", "k2", "x"]) == "k1")
        #expect(key(["EVAL", "return 1", "0"]) == nil)
        #expect(key(["SPUBLISH", "channel", "m"]) == "channel")
        #expect(key(["PING"]) == nil && key(["CLUSTER", "SHARDS"]) == nil)
    }

    @Test func redirectionsAreRead() {
        #expect(ClusterRedirect("MOVED 3999 127.0.0.1:6381") == .moved(.init(host: "127.0.0.1", port: 6381)))
        #expect(ClusterRedirect("ASK 3999 ::1:6381") == .ask(.init(host: "::1", port: 6381)))
        #expect(ClusterRedirect("ERR unknown command") == nil)
    }
}
