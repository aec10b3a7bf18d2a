import FolioEngine
import NIOCore
import Testing

@testable import FolioGateway

/// `IndexFeed` with a real indexer on real fill workers: whatever the chunking, queue limit and
/// batch, the list and token are those of indexing the body in one piece; a bad body fails the
/// download and the drain with the indexer's own error.
@Suite("Index feed")
struct IndexFeedTests {
    /// A list of `count` objects, large enough (~1.7 MB at 20,000) for background hashing.
    static func body(count: Int) -> [UInt8] {
        let items = (0..<count).map { #"{"id":\#($0),"name":"item \#($0)","tags":["a","b"],"n":\#($0 * 7 % 1000)}"# }
        return Array(("[" + items.joined(separator: ",") + "]").utf8)
    }

    static func reference(_ body: [UInt8]) throws -> (list: ItemList, token: String) {
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        try indexer.append(body)
        _ = try indexer.endBody()
        return try indexer.finish()
    }

    static func feed(_ body: [UInt8], chunk: Int, limit: Int, batch: Int) async throws -> (
        list: ItemList, token: String
    ) {
        let box = IndexerBox(ListIndexer(items: .root, limits: IndexLimits(), sort: []))
        let feed = IndexFeed(box: box, limit: limit, batch: batch)
        var offset = 0
        while offset < body.count {
            let end = min(offset + chunk, body.count)
            try await feed.receive(ByteBuffer(bytes: body[offset..<end]))
            offset = end
        }
        try await feed.drain()
        _ = try box.indexer.endBody()
        return try box.finish()
    }

    @Test(arguments: [
        // chunk, limit, batch
        (65_536, 4 << 20, 1 << 20),  // the defaults, chunks as NIO reads them
        (4096, 16_384, 8192),  // the download often waits for room
        (1000, 1, 1),  // one chunk per step, a wait for every chunk
        (300_000, 1 << 20, 100),  // chunks larger than a batch
    ])
    func anyChunkingGivesTheListOfOnePiece(chunk: Int, limit: Int, batch: Int) async throws {
        let body = Self.body(count: 20_000)
        let expected = try Self.reference(body)
        let fed = try await Self.feed(body, chunk: chunk, limit: limit, batch: batch)
        #expect(fed.token == expected.token)
        #expect(fed.list.count == 20_000)
        #expect(fed.list.starts == expected.list.starts && fed.list.ends == expected.list.ends)
        #expect(fed.list.bytes == expected.list.bytes)
    }

    @Test func feedsOfManyFillsAtOnceStayApart() async throws {
        let bodies = (0..<6).map { Self.body(count: 4000 + 1000 * $0) }
        let tokens = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, body) in bodies.enumerated() {
                group.addTask { (index, try await Self.feed(body, chunk: 8192, limit: 65_536, batch: 32_768).token) }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        for (index, body) in bodies.enumerated() { #expect(tokens[index] == (try Self.reference(body).token)) }
    }

    @Test func aBadBodyFailsTheDownloadAndTheDrainWithTheIndexersError() async throws {
        var body = Self.body(count: 20_000)
        body[500_000] = UInt8(ascii: "}")
        let box = IndexerBox(ListIndexer(items: .root, limits: IndexLimits(), sort: []))
        let feed = IndexFeed(box: box, limit: 32_768, batch: 16_384)
        var refused: (any Error)?
        var offset = 0
        while offset < body.count {
            let end = min(offset + 4096, body.count)
            do {
                try await feed.receive(ByteBuffer(bytes: body[offset..<end]))
            } catch {
                refused = error
                break
            }
            offset = end
        }
        let error = try #require(refused as? FolioError, "the download should end at a later chunk")
        #expect(offset < body.count)
        #expect(offset <= 500_000 + 32_768 + 16_384 + 4096, "not much past the bad byte")
        let reference = try #require(throws: FolioError.self) { try Self.reference(body) }
        #expect(error.status == reference.status && error.detail == reference.detail)
        let drained = try await #require(throws: FolioError.self) { try await feed.drain() }
        #expect(drained.detail == reference.detail)
        #expect(throws: FolioError.self) { try box.indexer.endBody() }
    }

    @Test func aLimitBreachedInAStepEndsTheDownload() async throws {
        let body = Self.body(count: 20_000)
        let box = IndexerBox(ListIndexer(items: .root, limits: IndexLimits(maxBytes: 200_000), sort: []))
        let feed = IndexFeed(box: box, limit: 65_536, batch: 16_384)
        await #expect(throws: FolioError.self) {
            var offset = 0
            while offset < body.count {
                let end = min(offset + 4096, body.count)
                try await feed.receive(ByteBuffer(bytes: body[offset..<end]))
                offset = end
            }
            try await feed.drain()
        }
    }
}
