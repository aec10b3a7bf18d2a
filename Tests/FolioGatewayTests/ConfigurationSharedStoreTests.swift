import FolioConfiguration
import Testing

/// `cache.store` and `cache.redis` (SPEC sections 2, 2.1 and 5.5).
@Suite("Configuration of the shared store")
struct ConfigurationSharedStoreTests {
    static func yaml(_ cache: String) -> String {
        "cache:\n" + cache.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n"
            + ConfigFixture.minimal
    }

    @Test func theDefaultsAreAMemoryStoreAndSPECsRedisSettings() throws {
        let configuration = try ConfigurationLoader.parse(yaml: ConfigFixture.minimal, file: "t.yaml")
        #expect(configuration.cache.store == .memory)
        let redis = configuration.cache.redis
        #expect(redis.url == nil && redis.keyPrefix == "folio:" && redis.localMaxBytes == 128 << 20)
        #expect(redis.connectTimeout == .seconds(2) && redis.commandTimeout == .seconds(2))
    }

    @Test func everyKeyIsRead() throws {
        let configuration = try ConfigurationLoader.parse(
            yaml: Self.yaml(
                """
                store: redis
                redis:
                  url: redis://app:s3cret@redis.internal:6380/2
                  keyPrefix: "shop:"
                  connectTimeout: 500ms
                  commandTimeout: 1s
                  localMaxBytes: 64MiB
                """), file: "t.yaml")
        let redis = configuration.cache.redis
        #expect(configuration.cache.store == .redis)
        #expect(
            redis.url
                == RedisURL(host: "redis.internal", port: 6380, username: "app", password: "s3cret", database: 2))
        #expect(redis.keyPrefix == "shop:" && redis.localMaxBytes == 64 << 20)
        #expect(redis.connectTimeout == .milliseconds(500) && redis.commandTimeout == .seconds(1))
        #expect(configuration.routes[0].cache.store == .memory, "routes carry no store of their own")
    }

    @Test func redisWithoutAURLIsReportedAtTheCacheKey() {
        let problems = ConfigFixture.problems(Self.yaml("store: redis"))
        #expect(problems.count == 1)
        #expect(problems.first?.message == "cache.store: redis needs cache.redis.url (or FOLIO_REDIS_URL)")
        #expect(problems.first?.line == 1)
    }

    @Test func theEnvironmentGivesTheURLAndThePassword() throws {
        let configuration = try ConfigurationLoader.parse(
            yaml: Self.yaml("store: redis"), file: "t.yaml",
            environment: ["FOLIO_REDIS_URL": "redis://redis:6379", "FOLIO_REDIS_PASSWORD": "from-secret"])
        #expect(configuration.cache.redis.url == RedisURL(host: "redis", password: "from-secret"))
        // The file's URL wins over FOLIO_REDIS_URL; its own password over FOLIO_REDIS_PASSWORD.
        let file = try ConfigurationLoader.parse(
            yaml: Self.yaml("store: redis\nredis: { url: 'redis://:inline@file:7000' }"), file: "t.yaml",
            environment: ["FOLIO_REDIS_URL": "redis://env:1", "FOLIO_REDIS_PASSWORD": "other"])
        #expect(file.cache.redis.url == RedisURL(host: "file", port: 7000, password: "inline"))
        let bad = ConfigFixture.problems(Self.yaml("store: redis"), environment: ["FOLIO_REDIS_URL": "http://x"])
        #expect(bad.map(\.message).contains { $0.hasPrefix("FOLIO_REDIS_URL: expected redis://") })
    }

    @Test(
        arguments: [
            ("redis: { url: 'http://redis:6379' }", "expected redis://"),
            ("redis: { url: 'redis://redis:99999' }", "'99999' is not a port"),
            ("redis: { url: 'redis://::1' }", "an IPv6 host needs brackets"),
            ("redis: { url: 'redis://redis/x' }", "the database after '/' must be a number"),
            ("redis: { url: 'redis://' }", "the URL has no host"),
            ("redis: { localMaxBytes: 0 }", "must be at least 1"),
            ("redis: { commandTimeout: soon }", "duration"),
            ("redis: { database: 1 }", "unknown key 'database'"),
            ("store: disk", "expected one of memory, redis"),
        ])
    func badValuesAreReported(cache: String, message: String) {
        let problems = ConfigFixture.problems(Self.yaml(cache))
        #expect(problems.contains { $0.message.contains(message) }, "\(problems)")
    }

    @Test func aRouteCannotChooseAStore() {
        let yaml = ConfigFixture.minimal + "\n    cache: { store: redis }"
        let problems = ConfigFixture.problems(yaml)
        #expect(
            problems.map(\.message) == ["unknown key 'store' (the store is global: set it in the top-level cache:)"])
    }

    @Test func theURLNeverShowsItsPassword() throws {
        let url = try RedisURL("rediss://app:p%40ss@[::1]:6390/3")
        #expect(url.password == "p@ss" && url.host == "::1" && url.port == 6390 && url.database == 3 && url.tls)
        #expect(url.description == "rediss://app:***@[::1]:6390/3")
        #expect(!"\(try RedisURL("redis://:hunter2@h"))".contains("hunter2"))
    }
}
