import FolioRedis
import NIOCore
import Testing

@Suite("RESP2 parser and encoder")
struct RESPParserTests {
    private func parse(_ text: String, parser: RESPParser = RESPParser()) throws -> (RESPValue?, Int) {
        var buffer = ByteBuffer(string: text)
        let value = try parser.next(&buffer)
        return (value, buffer.readableBytes)
    }

    @Test(arguments: [
        ("+OK\r\n", RESPValue.simpleString("OK")),
        ("-ERR wrong type\r\n", .error("ERR wrong type")),
        (":42\r\n", .integer(42)),
        (":-7\r\n", .integer(-7)),
        ("$5\r\nhello\r\n", .bulkString(Array("hello".utf8))),
        ("$0\r\n\r\n", .bulkString([])),
        ("$-1\r\n", .bulkString(nil)),
        ("$4\r\na\r\nb\r\n", .bulkString(Array("a\r\nb".utf8))),
        ("*0\r\n", .array([])),
        ("*-1\r\n", .array(nil)),
        ("*2\r\n$1\r\na\r\n:1\r\n", .array([.bulkString([97]), .integer(1)])),
        ("*2\r\n*1\r\n+x\r\n$-1\r\n", .array([.array([.simpleString("x")]), .bulkString(nil)])),
    ])
    func wholeValues(text: String, expected: RESPValue) throws {
        let (value, left) = try parse(text)
        #expect(value == expected)
        #expect(left == 0)
    }

    @Test func everyPrefixWaitsAndConsumesNothing() throws {
        let text = "*3\r\n$3\r\nSET\r\n$5\r\nk\r\ney\r\n:12345\r\n"
        let bytes = Array(text.utf8)
        for cut in 0..<bytes.count {
            var buffer = ByteBuffer(bytes: bytes[..<cut])
            #expect(try RESPParser().next(&buffer) == nil, "prefix of \(cut) bytes")
            #expect(buffer.readableBytes == cut)
        }
        let (value, left) = try parse(text)
        #expect(value == .array([.bulkString(Array("SET".utf8)), .bulkString(Array("k\r\ney".utf8)), .integer(12345)]))
        #expect(left == 0)
    }

    @Test func valuesBackToBack() throws {
        var buffer = ByteBuffer(string: "+PONG\r\n:1\r\n$1\r\nz\r\n")
        let parser = RESPParser()
        #expect(try parser.next(&buffer) == .simpleString("PONG"))
        #expect(try parser.next(&buffer) == .integer(1))
        #expect(try parser.next(&buffer) == .bulkString([122]))
        #expect(try parser.next(&buffer) == nil)
    }

    @Test(arguments: [
        "?what\r\n", ":12a\r\n", "$abc\r\n", "$-2\r\n", "$3\r\nabcXY", "*x\r\n",
    ])
    func notRESP(text: String) {
        #expect(throws: RedisError.self) { try parse(text) }
        #expect((try? parse(text)) == nil)
    }

    @Test func capsHoldAgainstAHostilePeer() {
        let small = RESPParser(maxBulkBytes: 10, maxArrayCount: 2, maxDepth: 2)
        #expect(throws: RedisError.self) { try parse("$11\r\n", parser: small) }
        #expect(throws: RedisError.self) { try parse("*3\r\n", parser: small) }
        #expect(throws: RedisError.self) { try parse("*1\r\n*1\r\n*1\r\n:1\r\n", parser: small) }
        #expect((try? parse("*1\r\n*1\r\n:1\r\n", parser: small))?.0 == .array([.array([.integer(1)])]))
    }

    @Test func commandsAreArraysOfBulkStrings() {
        var buffer = ByteBuffer()
        RESPEncoder.encode([Array("SET".utf8), Array("k".utf8), [0, 13, 10]], into: &buffer)
        #expect(
            Array(buffer.readableBytesView) == Array("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\n".utf8) + [0, 13, 10] + [
                13, 10,
            ])
    }
}
