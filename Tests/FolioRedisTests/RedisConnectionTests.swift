import FolioRedis
import FolioTestSupport
import Foundation
import Testing

/// The client against a real `redis-server` each test starts on its own port.
@Suite("RedisConnection against a real redis-server")
struct RedisConnectionTests {
    /// Connects with `configuration` and sends `PING`, closing the connection whether it
    /// answers or throws.
    static func ping(_ configuration: RedisConfiguration) async throws {
        let connection = try await RedisConnection.connect(configuration)
        do {
            try await connection.send(["PING"])
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
    }

    @Test func valuesRoundTripBinarySafe() async throws {
        try await RedisServer.with { server in
            let redis = try await RedisConnection.connect(server.configuration())
            let value: [UInt8] =
                Array("a\r\nb".utf8) + [0, 255] + (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            #expect(try await redis.send([Array("SET".utf8), Array("k\r\n1".utf8), value]) == .simpleString("OK"))
            #expect(try await redis.send([Array("GET".utf8), Array("k\r\n1".utf8)]).bytes == value)
            #expect(try await redis.send(["GET", "absent"]).isNull)
            #expect(try await redis.send(["PING"]) == .simpleString("PONG"))
            await redis.close()
        }
    }

    @Test func pipelinedCommandsGetTheirOwnAnswers() async throws {
        try await RedisServer.with { server in
            let redis = try await RedisConnection.connect(server.configuration())
            let answers = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for index in 0..<200 {
                    group.addTask {
                        _ = try await redis.send(["SET", "key\(index)", "value\(index)"])
                        return (index, try await redis.send(["GET", "key\(index)"]).string)
                    }
                }
                var answers: [Int: String?] = [:]
                for try await (index, value) in group { answers[index] = value }
                return answers
            }
            #expect(answers.count == 200)
            #expect(answers.allSatisfy { $0.value == "value\($0.key)" })
            let increments = try await withThrowingTaskGroup(of: Int64?.self) { group in
                for _ in 0..<100 { group.addTask { try await redis.send(["INCR", "counter"]).integer } }
                return try await group.reduce(into: Set<Int64>()) { if let value = $1 { $0.insert(value) } }
            }
            #expect(increments == Set(1...100))
            await redis.close()
        }
    }

    @Test func aServerErrorLeavesTheConnectionUsable() async throws {
        try await RedisServer.with { server in
            let redis = try await RedisConnection.connect(server.configuration())
            _ = try await redis.send(["LPUSH", "list", "x"])
            do throws(RedisError) {
                _ = try await redis.send(["INCR", "list"])
                Issue.record("INCR on a list succeeded")
            } catch {
                #expect(error.isServerError)
                #expect(error.message.hasPrefix("WRONGTYPE"))
            }
            #expect(try await redis.send(["PING"]) == .simpleString("PONG"))
            await redis.close()
        }
    }

    @Test func authenticatesAndNeverSaysThePassword() async throws {
        try await RedisServer.with(arguments: ["--requirepass", "s3cret-pw"]) { server in
            let anonymous = try await RedisConnection.connect(server.configuration())
            await #expect(throws: RedisError.self) { try await anonymous.send(["GET", "k"]) }
            await anonymous.close()
            do throws(RedisError) {
                _ = try await RedisConnection.connect(server.configuration(password: "wrong-pw"))
                Issue.record("a wrong password was accepted")
            } catch {
                #expect(error.isServerError)
                #expect(!error.description.contains("wrong-pw"))
            }
            let redis = try await RedisConnection.connect(server.configuration(password: "s3cret-pw"))
            #expect(try await redis.send(["PING"]) == .simpleString("PONG"))
            await redis.close()
        }
    }

    @Test func selectsTheDatabase() async throws {
        try await RedisServer.with { server in
            let three = try await RedisConnection.connect(server.configuration(database: 3))
            let zero = try await RedisConnection.connect(server.configuration())
            _ = try await three.send(["SET", "only-in-3", "x"])
            #expect(try await three.send(["GET", "only-in-3"]).string == "x")
            #expect(try await zero.send(["GET", "only-in-3"]).isNull)
            await three.close()
            await zero.close()
        }
    }

    @Test func aSlowAnswerTimesOutAndClosesTheConnection() async throws {
        try await RedisServer.with { server in
            let redis = try await RedisConnection.connect(server.configuration(commandTimeout: .milliseconds(100)))
            do throws(RedisError) {
                // Blocks server-side for a second on an empty list.
                _ = try await redis.send(["BLPOP", "empty", "1"])
                Issue.record("BLPOP answered within 100 ms")
            } catch {
                #expect(error.isTimeout)
            }
            // Answers can no longer be matched to commands: the connection is closed.
            do throws(RedisError) {
                _ = try await redis.send(["PING"])
                Issue.record("the connection stayed usable after a timeout")
            } catch {
                #expect(error.isConnectionError)
            }
            #expect(!redis.isOpen)
        }
    }

    @Test func aRefusedConnectionIsAConnectionError() async throws {
        let port = try await RedisServer.with { $0.port }  // stopped: nothing listens there now
        do throws(RedisError) {
            _ = try await RedisConnection.connect(RedisConfiguration(host: "127.0.0.1", port: port))
            Issue.record("connected to a stopped server")
        } catch {
            #expect(error.isConnectionError)
        }
    }

    @Test func aServerThatGoesAwayFailsCommandsInsteadOfHanging() async throws {
        try await RedisServer.with { server in
            let redis = try await RedisConnection.connect(server.configuration())
            #expect(try await redis.send(["PING"]) == .simpleString("PONG"))
            server.stop()
            do throws(RedisError) {
                _ = try await redis.send(["PING"])
                Issue.record("a command succeeded on a stopped server")
            } catch {
                #expect(error.isConnectionError)
            }
        }
    }

    @Test func speaksTLSToATLSServerAndRefusesOneItDoesNotTrust() async throws {
        let tls = try await TLSFiles.make()
        try await RedisServer.with(tls: tls) { server in
            let connection = try await RedisConnection.connect(server.configuration())
            #expect(try await connection.send(["PING"]) == .simpleString("PONG"))
            await connection.close()

            var untrusted = server.configuration()
            untrusted.tls = .makeClientConfiguration()
            await #expect(throws: RedisError.self) {
                try await Self.ping(untrusted)
            }
            var plain = server.configuration(commandTimeout: .milliseconds(300))
            plain.tls = nil
            await #expect(throws: RedisError.self, "plain text to a TLS port fails, it does not hang") {
                try await Self.ping(plain)
            }
        }
    }

    /// A server that asks for a client certificate (`tls-auth-clients yes`) takes the one the
    /// configuration names, read from its files, and refuses a client without one.
    @Test func showsItsClientCertificateToAServerThatAsksForOne() async throws {
        let tls = try await TLSFiles.make(authenticatingClients: true)
        defer { try? FileManager.default.removeItem(at: tls.directory) }
        try await RedisServer.with(tls: tls) { server in
            let connection = try await RedisConnection.connect(server.configuration())
            #expect(try await connection.send(["PING"]) == .simpleString("PONG"))
            await connection.close()

            var anonymous = server.configuration()
            #expect(anonymous.clientCertificate != nil)
            anonymous.clientCertificate = nil
            await #expect(throws: RedisError.self) {
                try await Self.ping(anonymous)
            }
            var missing = server.configuration()
            missing.clientCertificate?.key = tls.directory.appendingPathComponent("gone.key").path
            await #expect(throws: RedisError.self, "a key file gone since the start fails the connection") {
                _ = try await RedisConnection.connect(missing)
            }
        }
    }
}
