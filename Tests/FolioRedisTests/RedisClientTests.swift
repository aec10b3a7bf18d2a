import FolioTestSupport
import Foundation
import Testing

@testable import FolioRedis

@Suite("RedisClient reconnects with backoff")
struct RedisClientTests {
    @Test func itComesBackWhenRedisDoes() async throws {
        let first = try await RedisServer.start()
        defer { first.stop() }
        let client = RedisClient(
            first.configuration(), initialBackoff: .milliseconds(50), maxBackoff: .milliseconds(200))
        #expect(try await client.send(["SET", "k", "v"]) == .simpleString("OK"))
        first.stop()
        // Down: commands fail (with connection errors), they do not hang.
        for _ in 0..<3 {
            await #expect(throws: RedisError.self) { try await client.send(["PING"]) }
        }
        #expect(!client.isConnected)
        let second = try await RedisServer.start(port: first.port)
        defer { second.stop() }
        var answer: RESPValue?
        for _ in 0..<50 where answer == nil {
            answer = try? await client.send(["PING"])
            if answer == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(answer == .simpleString("PONG"))
        #expect(client.isConnected)
        await client.close()
    }

    @Test func whileBackingOffCommandsFailAtOnce() async throws {
        let port = try await RedisServer.with { $0.port }  // nothing listens there now
        let client = RedisClient(
            RedisConfiguration(host: "127.0.0.1", port: port), initialBackoff: .seconds(60), maxBackoff: .seconds(60))
        do throws(RedisError) {
            _ = try await client.send(["PING"])
            Issue.record("PING succeeded without a server")
        } catch {
            #expect(error.isConnectionError)
            #expect(error.message.contains("cannot connect"))
        }
        do throws(RedisError) {
            _ = try await client.send(["PING"])
            Issue.record("PING succeeded without a server")
        } catch {
            // No second connection attempt within the backoff.
            #expect(error.message.contains("next connection attempt in"))
        }
    }

    @Test func concurrentCommandsShareOneConnection() async throws {
        try await RedisServer.with { server in
            let client = RedisClient(server.configuration())
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<50 { group.addTask { _ = try await client.send(["SET", "k\(index)", "v"]) } }
                try await group.waitForAll()
            }
            // The server's own readiness probe may still be listed for a moment after it closed.
            var clients = ""
            for _ in 0..<150 {
                clients = try #require(try await client.send(["CLIENT", "LIST"]).string)
                if clients.split(separator: "\n").count == 1 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(clients.split(separator: "\n").count == 1, "\(clients)")
            await client.close()
        }
    }

    @Test func aServerErrorKeepsTheConnection() async throws {
        try await RedisServer.with { server in
            let client = RedisClient(server.configuration())
            let id = try await client.send(["CLIENT", "ID"]).integer
            await #expect(throws: RedisError.self) { try await client.send(["NOSUCHCOMMAND"]) }
            #expect(try await client.send(["CLIENT", "ID"]).integer == id)
            await client.close()
        }
    }

    @Test func backoffDoublesUpToItsCeiling() {
        let client = RedisClient(
            RedisConfiguration(host: "127.0.0.1"), initialBackoff: .milliseconds(100), maxBackoff: .seconds(1))
        #expect(
            (1...6).map { client.backoff(after: $0) } == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1),
                .seconds(1),
            ])
    }
}
