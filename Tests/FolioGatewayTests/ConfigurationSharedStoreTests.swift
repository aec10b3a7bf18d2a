import FolioConfiguration
import FolioGateway
import Foundation
import Testing

/// `cache.store` and `cache.redis` (docs/CONFIG.md; docs/SHARED-STORE.md).
@Suite("Configuration of the shared store")
struct ConfigurationSharedStoreTests {
    static func yaml(_ cache: String) -> String {
        "cache:\n" + cache.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n"
            + ConfigFixture.minimal
    }

    @Test func theDefaultsAreAMemoryStoreAndTheDocumentedRedisSettings() throws {
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

    @Test func redisWithoutAURLIsReportedAtTheStoreKey() {
        let problems = ConfigFixture.problems(Self.yaml("store: redis"))
        #expect(problems.count == 1)
        #expect(problems.first?.path == "cache.store")
        #expect(
            problems.first?.message
                == "redis needs cache.redis.url (or FOLIO_REDIS_URL), cache.redis.cluster or cache.redis.sentinel")
        #expect(problems.first?.line == 2 && problems.first?.column == 3, "at the store key")
    }

    /// A malformed URL is its own problem: the store is not also said to lack one.
    @Test func aMalformedURLIsReportedOnce() {
        let problems = ConfigFixture.problems(Self.yaml("store: redis\nredis: { url: 'http://redis:6379' }"))
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.path == "cache.redis.url")
        let fromEnvironment = ConfigFixture.problems(
            Self.yaml("store: redis"), environment: ["FOLIO_REDIS_URL": "redis://"])
        #expect(fromEnvironment.count == 1, "\(fromEnvironment)")
        #expect(fromEnvironment.first?.message.hasPrefix("FOLIO_REDIS_URL:") == true)
    }

    /// `cluster`: seed URLs instead of `url` (docs/SHARED-STORE.md, "Redis Cluster").
    @Test func aClusterIsNamedByItsSeeds() throws {
        let configuration = try ConfigurationLoader.parse(
            yaml: Self.yaml("store: redis\nredis:\n  cluster: [redis://r1:7000, 'redis://app@r2']"), file: "t.yaml",
            environment: ["FOLIO_REDIS_PASSWORD": "from-secret"])
        let redis = configuration.cache.redis
        #expect(redis.url == nil)
        #expect(
            redis.cluster == [
                RedisURL(host: "r1", port: 7000, password: "from-secret"),
                RedisURL(host: "r2", password: "app"),
            ])
        let cases: [(String, String)] = [
            ("redis:\n  url: redis://r:1\n  cluster: [redis://r1:7000]", "name one of cache.redis.url"),
            ("redis:\n  cluster: [redis://r1:7000, rediss://r2:7000]", "all redis:// or all rediss://"),
            ("redis:\n  cluster: [redis://r1:7000/2]", "database 0 only"),
            ("redis:\n  cluster: [http://r1:7000]", "expected redis://"),
            ("redis:\n  cluster: redis://r1:7000", "expected a list"),
        ]
        for (yaml, message) in cases {
            let problems = ConfigFixture.problems(Self.yaml("store: redis\n" + yaml))
            #expect(problems.count == 1, "\(yaml): \(problems)")
            #expect(problems.first?.message.contains(message) == true, "\(problems)")
        }
        // FOLIO_REDIS_URL does not stand in for a cluster the file names.
        let named = try ConfigurationLoader.parse(
            yaml: Self.yaml("store: redis\nredis:\n  cluster: [redis://r1:7000]"), file: "t.yaml",
            environment: ["FOLIO_REDIS_URL": "redis://other:1"])
        #expect(named.cache.redis.url == nil)
    }

    /// `sentinel`: the sentinels and the name they monitor, with separate passwords for the
    /// sentinels and the data nodes (docs/SHARED-STORE.md, "Sentinel").
    @Test func sentinelsAreNamedWithTheirOwnPassword() throws {
        let yaml = Self.yaml(
            "store: redis\nredis:\n  sentinel: { nodes: ['redis://:shared@s1:26379', 'redis://s2:26379'], masterName: m }"
        )
        let plain = try ConfigurationLoader.parse(yaml: yaml, file: "t.yaml")
        #expect(
            plain.cache.redis.sentinel
                == SentinelSettings(
                    nodes: [RedisURL(host: "s1", port: 26379, password: "shared"), RedisURL(host: "s2", port: 26379)],
                    masterName: "m", sentinelPassword: "shared", password: "shared"))
        let separate = try ConfigurationLoader.parse(
            yaml: yaml, file: "t.yaml",
            environment: ["FOLIO_REDIS_PASSWORD": "data", "FOLIO_REDIS_SENTINEL_PASSWORD": "watch"])
        #expect(separate.cache.redis.sentinel?.password == "data")
        #expect(separate.cache.redis.sentinel?.sentinelPassword == "watch")
        let cases: [(String, String)] = [
            ("redis:\n  sentinel: { nodes: ['redis://s1:26379'] }", "sentinel needs masterName"),
            ("redis:\n  sentinel: { masterName: m }", "sentinel needs nodes"),
            ("redis:\n  url: redis://r:1\n  sentinel: { nodes: ['redis://s1:26379'], masterName: m }", "name one of"),
        ]
        for (yaml, message) in cases {
            let problems = ConfigFixture.problems(Self.yaml("store: redis\n" + yaml))
            #expect(problems.count == 1, "\(yaml): \(problems)")
            #expect(problems.first?.message.contains(message) == true, "\(problems)")
        }
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
            ("redis: { commandTimeout: 0s }", "must be greater than 0"),
            ("redis: { connectTimeout: 0ms }", "must be greater than 0"),
            ("redis: { database: 1 }", "unknown key 'database'"),
            ("redis: { keyPrefix: 'app{1}:' }", "keyPrefix must not contain '{' or '}'"),
            ("store: disk", "expected one of memory, redis"),
        ])
    func badValuesAreReported(cache: String, message: String) {
        let problems = ConfigFixture.problems(Self.yaml(cache))
        #expect(problems.contains { $0.message.contains(message) }, "\(problems)")
    }

    /// A fresh directory holding `ca.pem`: a `BEGIN CERTIFICATE` block whose content is no
    /// certificate (the config check passes it; the TLS library does not).
    static func directoryWithABundle() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".write(
            to: directory.appendingPathComponent("ca.pem"), atomically: true, encoding: .utf8)
        return directory
    }

    /// A private CA for `rediss://` (`caFile`): kept when the file holds a PEM certificate and
    /// the URL is a TLS one; otherwise reported at the key, with what is wrong.
    @Test func aCAFileIsCheckedWhenTheConfigIsRead() throws {
        let directory = try Self.directoryWithABundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("ca.pem").path
        let notPEM = directory.appendingPathComponent("ca.der").path
        try "not a certificate".write(toFile: notPEM, atomically: true, encoding: .utf8)
        let empty = directory.appendingPathComponent("empty.pem").path
        try "".write(toFile: empty, atomically: true, encoding: .utf8)

        func yaml(_ url: String, _ caFile: String) -> String {
            Self.yaml("store: redis\nredis:\n  url: \(url)\n  caFile: '\(caFile)'")
        }
        let kept = try ConfigurationLoader.parse(yaml: yaml("rediss://redis.internal:6380", bundle), file: "t.yaml")
        #expect(kept.cache.redis.caFile == bundle)
        // Kubernetes mounts a Secret's files as symbolic links (into `..data/`).
        let link = directory.appendingPathComponent("linked.pem").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: bundle)
        let linked = try ConfigurationLoader.parse(yaml: yaml("rediss://redis.internal:6380", link), file: "t.yaml")
        #expect(linked.cache.redis.caFile == link)
        #expect(
            try ConfigurationLoader.parse(yaml: Self.yaml("store: memory"), file: "t.yaml").cache.redis.caFile == nil)

        let missing = directory.appendingPathComponent("missing.pem").path
        let cases: [(url: String, file: String, message: String)] = [
            ("rediss://r:1", missing, "cannot open the file (No such file or directory)"),
            ("rediss://r:1", "", "empty: name a PEM file"),
            ("rediss://r:1", directory.path, "not a regular file"),
            ("rediss://r:1", notPEM, "no PEM certificate in it"),
            ("rediss://r:1", empty, "no PEM certificate in it"),
            ("redis://r:1", bundle, "caFile is only used with TLS"),
        ]
        for (url, file, message) in cases {
            let problems = ConfigFixture.problems(yaml(url, file))
            #expect(problems.count == 1, "\(file): \(problems)")
            #expect(problems.first?.message.contains(message) == true, "\(problems)")
            #expect(problems.first?.path == "cache.redis.caFile")
            #expect(problems.first?.line == 5 && problems.first?.column == 5, "at the key, not at the file's start")
        }
        // A memory store reads no `cache.redis`: its caFile is not checked, like its URL.
        let memory = try ConfigurationLoader.parse(
            yaml: Self.yaml("store: memory\nredis:\n  url: redis://r:1\n  caFile: '\(missing)'"), file: "t.yaml")
        #expect(memory.cache.store == .memory)
        // The URL may come from the environment: the check follows it there.
        let fromEnvironment = ConfigFixture.problems(
            Self.yaml("store: redis\nredis:\n  caFile: '\(bundle)'"), environment: ["FOLIO_REDIS_URL": "redis://r:1"])
        #expect(
            fromEnvironment.map(\.message) == ["caFile is only used with TLS: the Redis URL is redis://, not rediss://"]
        )
    }

    /// A bundle with a `BEGIN CERTIFICATE` block the TLS library cannot parse passes the config
    /// check (the configuration target has no TLS library) and stops the
    /// start, saying so, instead of failing every connection to Redis.
    @Test func aCAFileWithoutAReadableCertificateStopsTheStart() throws {
        let directory = try Self.directoryWithABundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("ca.pem").path
        let configuration = try ConfigurationLoader.parse(
            yaml: Self.yaml("store: redis\nredis:\n  url: rediss://127.0.0.1:1\n  caFile: '\(bundle)'"),
            file: "t.yaml")
        let error = #expect(throws: (any Error).self) {
            _ = try buildApplication(configuration: configuration, logger: quietLogger)
        }
        #expect(
            startupProblems(configuration, file: "t.yaml").map { "\($0.path): \($0.message)" }
                == [try #require(error.map { "\($0)" })])

        // `folio validate` says so too, and exits 1.
        let file = directory.appendingPathComponent("folio.yaml")
        try Self.yaml("store: redis\nredis:\n  url: rediss://127.0.0.1:1\n  caFile: '\(bundle)'").write(
            to: file, atomically: true, encoding: .utf8)
        let (status, output, _) = try FolioProcess.validate(file)
        #expect(status == 1)
        // The one problem line of docs/OPERATIONS.md, "Signals", at the key (line 5, column 5 of the file).
        #expect(
            output.hasPrefix("\(file.path):5:5: cache.redis.caFile: \(bundle): a certificate in it cannot be parsed"),
            "\(output)")
        #expect(output.filter { $0 == "\n" }.count == 1)
        // `serve` stops on it with the same line, before it starts anything.
        let serve = try FolioProcess.runToEnd(["serve", "--config", file.path])
        #expect(serve.status == 1)
        #expect(serve.stderr == output, "\(serve.stderr)")
        #expect(
            error.map { "\($0)" }?.hasPrefix("cache.redis.caFile: \(bundle): a certificate in it cannot be parsed")
                == true)
    }

    /// A client certificate for mutual TLS (`certFile`, `keyFile`): both kept when each file
    /// holds its kind of PEM block; otherwise reported at the key, with what is wrong; one
    /// without the other is a problem too.
    @Test func aClientCertificateIsCheckedWhenTheConfigIsRead() throws {
        let directory = try Self.directoryWithABundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = directory.appendingPathComponent("ca.pem").path
        func file(_ name: String, _ text: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let key = try file("client.key", "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n")
        let rsaKey = try file("rsa.key", "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n")
        let encrypted = try file("pkcs8.key", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIE\n")
        let oldEncrypted = try file("old.key", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nMIIE\n")
        let notPEM = try file("client.der", "not a key")

        func yaml(_ url: String, certFile: String?, keyFile: String?) -> String {
            Self.yaml(
                "store: redis\nredis:\n  url: \(url)" + (certFile.map { "\n  certFile: '\($0)'" } ?? "")
                    + (keyFile.map { "\n  keyFile: '\($0)'" } ?? ""))
        }
        for keyFile in [key, rsaKey] {
            let kept = try ConfigurationLoader.parse(
                yaml: yaml("rediss://r:1", certFile: certificate, keyFile: keyFile), file: "t.yaml")
            #expect(kept.cache.redis.certFile == certificate && kept.cache.redis.keyFile == keyFile)
        }

        let cases: [(certFile: String?, keyFile: String?, key: String, line: Int, message: String)] = [
            (certificate, notPEM, "keyFile", 6, "no PEM private key in it"),
            (certificate, encrypted, "keyFile", 6, "an encrypted private key"),
            (certificate, oldEncrypted, "keyFile", 6, "an encrypted private key"),
            (certificate, "", "keyFile", 6, "empty: name a PEM file of the client's private key"),
            (key, key, "certFile", 5, "no PEM certificate in it"),
            (certificate, nil, "certFile", 5, "certFile needs keyFile"),
            (nil, key, "keyFile", 5, "keyFile needs certFile"),
        ]
        for (certFile, keyFile, path, line, message) in cases {
            let problems = ConfigFixture.problems(yaml("rediss://r:1", certFile: certFile, keyFile: keyFile))
            #expect(problems.count == 1, "\(problems)")
            #expect(problems.first?.message.contains(message) == true, "\(problems)")
            #expect(problems.first?.path == "cache.redis.\(path)")
            #expect(problems.first?.line == line && problems.first?.column == 5, "at the key: \(problems)")
        }
        let plain = ConfigFixture.problems(yaml("redis://r:1", certFile: certificate, keyFile: key))
        #expect(
            plain.map(\.message)
                == ["certFile", "keyFile"].map {
                    "\($0) is only used with TLS: the Redis URL is redis://, not rediss://"
                })
    }

    /// A client key that is not the certificate's, or that does not parse, passes the config
    /// check and stops the start (and `validate`), instead of failing every connection.
    @Test func aClientKeyThatIsNotTheCertificatesStopsTheStart() async throws {
        let tls = try await TLSFiles.make(authenticatingClients: true)
        defer { try? FileManager.default.removeItem(at: tls.directory) }
        let garbled = tls.directory.appendingPathComponent("garbled.key").path
        try "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n".write(
            toFile: garbled, atomically: true, encoding: .utf8)
        func configuration(keyFile: String) throws -> Configuration {
            try ConfigurationLoader.parse(
                yaml: Self.yaml(
                    "store: redis\nredis:\n  url: rediss://127.0.0.1:1\n  caFile: '\(tls.caFile)'\n"
                        + "  certFile: '\(tls.clientCertificate.chain)'\n  keyFile: '\(keyFile)'"),
                file: "t.yaml")
        }
        #expect(startupProblems(try configuration(keyFile: tls.clientCertificate.key), file: "t.yaml") == [])
        for (keyFile, problem) in [
            (tls.keyFile, "not the private key of certFile's certificate"),
            (garbled, "the private key cannot be parsed"),
        ] {
            let wrong = try configuration(keyFile: keyFile)
            let problems = startupProblems(wrong, file: "t.yaml").map(\.description)
            #expect(problems.count == 1)
            // At the key: `keyFile` is on line 7 of the file, indented by 4.
            #expect(
                problems.first?.hasPrefix("t.yaml:7:5: cache.redis.keyFile: \(keyFile): \(problem) (") == true,
                "\(problems)")
            let error = #expect(throws: (any Error).self) {
                _ = try buildApplication(configuration: wrong, logger: quietLogger)
            }
            #expect(error.map { "t.yaml:7:5: \($0)" } == problems.first)
        }
    }

    /// Where the PEM keys stand is kept for problem lines, but is no setting: a reload of a file
    /// whose keys only moved does not see `cache.redis` changed (which would need a restart).
    @Test func whereAFileKeyStandsIsNoSetting() throws {
        let directory = try Self.directoryWithABundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("ca.pem").path
        let first = try ConfigurationLoader.parse(
            yaml: Self.yaml("store: redis\nredis:\n  url: rediss://r:1\n  caFile: '\(bundle)'"), file: "t.yaml")
        let moved = try ConfigurationLoader.parse(
            yaml: Self.yaml("store: redis\nredis:\n  caFile: '\(bundle)'\n  url: rediss://r:1"), file: "t.yaml")
        #expect(first.cache.redis.filePositions["caFile"]?.line == 5)
        #expect(moved.cache.redis.filePositions["caFile"]?.line == 4)
        #expect(first.cache.redis == moved.cache.redis)
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
