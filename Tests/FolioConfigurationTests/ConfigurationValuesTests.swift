import FolioEngine
import FolioTestSupport
import Testing

@testable import FolioConfiguration

@Suite("Configuration values")
struct ConfigurationValuesTests {
    @Test(
        "durations: <integer><ms|s|m|h>",
        arguments: [
            ("0s", Duration.zero), ("500ms", .milliseconds(500)), ("30s", .seconds(30)), ("5m", .seconds(300)),
            ("2h", .seconds(7200)), ("0ms", .zero), ("100000h", .seconds(360_000_000)),
        ])
    func goodDurations(_ text: String, _ expected: Duration) throws {
        #expect(try ConfigurationText.duration(text).get() == expected)
    }

    @Test(
        "bad durations are refused",
        arguments: [
            "", "5", "s", "-5s", "+5s", "5 s", "1.5s", "5sec", "5d", "5mss", "1m30s", "5S", "99999999999999999999h",
            // Past 100000h: 2562048h once passed validation and overflowed at the first fetch.
            "100001h", "2562048h", "9223372037s",
        ])
    func badDurations(_ text: String) {
        #expect(throws: ValueSyntaxError.self) { try ConfigurationText.duration(text).get() }
    }

    @Test(
        "sizes: <integer>[B|KiB|MiB|GiB]",
        arguments: [
            ("0", 0), ("1024", 1024), ("7B", 7), ("8KiB", 8 * 1024), ("256MiB", 256 * 1024 * 1024),
            ("4GiB", 4 * 1024 * 1024 * 1024), ("1048576GiB", 1 << 50),
        ])
    func goodSizes(_ text: String, _ expected: Int) throws {
        #expect(try ConfigurationText.size(text).get() == expected)
    }

    /// Past 1048576GiB: 4294967296GiB once passed validation and overflowed at start-up.
    @Test(
        "bad sizes are refused",
        arguments: [
            "", "KiB", "-1", "1.5MiB", "8KB", "8 KiB", "8kib", "1TiB", "8K", "1048577GiB", "4294967296GiB",
            "1125899906842625",
        ])
    func badSizes(_ text: String) {
        #expect(throws: ValueSyntaxError.self) { try ConfigurationText.size(text).get() }
    }

    @Test("durations and sizes through YAML, plain or quoted")
    func throughYAML() throws {
        let yaml =
            "limits: {crawlTimeout: \"90s\", maxURLBytes: 4096, maxHeaderBytes: '1KiB'}\n" + ConfigFixture.minimal
        let config = try ConfigurationLoader.parse(yaml: yaml, file: "f")
        #expect(config.limits.crawlTimeout == .seconds(90))
        #expect(config.limits.maxURLBytes == 4096)
        #expect(config.limits.maxHeaderBytes == 1024)
    }

    @Test(
        "JSON Pointers",
        arguments: [
            ("", true), ("/", true), ("/a/b", true), ("/a~0b", true), ("/a~1b", true), ("/0", true),
            ("a", false), ("/a~", false), ("/a~2", false), ("~0", false), ("/~x", false),
        ])
    func jsonPointers(_ text: String, _ valid: Bool) {
        // The engine's one parser, as the config reader uses it.
        #expect(((try? JSONPointer(text)) != nil) == valid)
    }

    @Test("suggestions for unknown keys")
    func suggestions() {
        let keys = ["pageSize", "maxPageSize", "overMaxPageSize", "params", "pageBase", "envelope", "itemsKey"]
        #expect(ConfigurationText.suggestion(for: "pagesize", among: keys) == "pageSize")
        #expect(ConfigurationText.suggestion(for: "pagSize", among: keys) == "pageSize")
        #expect(ConfigurationText.suggestion(for: "envelpoe", among: keys) == "envelope")
        #expect(ConfigurationText.suggestion(for: "colour", among: keys) == nil)
        #expect(ConfigurationText.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(ConfigurationText.editDistance(Array("ab"), Array("ba")) == 1)
    }

    @Test(
        "CIDR membership",
        arguments: [
            ("10.0.0.0/8", "10.255.1.2", true),
            ("10.0.0.0/8", "11.0.0.1", false),
            ("10.1.2.3/8", "10.9.9.9", true),
            ("192.168.1.0/24", "192.168.1.255", true),
            ("192.168.1.0/24", "192.168.2.0", false),
            ("192.168.1.128/25", "192.168.1.127", false),
            ("192.168.1.128/25", "192.168.1.200", true),
            ("0.0.0.0/0", "203.0.113.9", true),
            ("203.0.113.9", "203.0.113.9", true),
            ("203.0.113.9", "203.0.113.10", false),
            ("127.0.0.1/32", "::ffff:127.0.0.1", true),
            ("10.0.0.0/8", "::ffff:10.1.1.1", true),
            ("10.0.0.0/8", "::ffff:11.1.1.1", false),
            ("10.0.0.0/8", "::ffff:a01:101", true),
            ("10.0.0.0/8", "::10.1.1.1", false),
            ("::1/128", "::1", true),
            ("::1", "::2", false),
            ("2001:db8::/32", "2001:db8:ffff::1", true),
            ("2001:db8::/32", "2001:db9::1", false),
            ("2001:db8::/32", "2001:0DB8:0:0:0:0:0:1", true),
            ("fe80::/10", "fe80::1%eth0", true),
            ("fe80::/10", "fec0::1", false),
            ("::ffff:0:0/96", "192.0.2.1", true),
            ("::/0", "10.0.0.1", true),
            ("10.0.0.0/8", "10.0.0", false),
            ("10.0.0.0/8", "not an address", false),
            ("10.0.0.0/8", "", false),
        ])
    func cidrContains(_ network: String, _ address: String, _ expected: Bool) throws {
        let cidr = try #require(CIDR(network))
        #expect(cidr.contains(address) == expected)
    }

    @Test(
        "invalid CIDRs",
        arguments: [
            "", "10.0.0.0/", "10.0.0.0/33", "10.0.0/8", "10.0.0.256/8", "010.0.0.0/8", "::1/129",
            "1:2:3:4:5:6:7:8:9/64",
            "1::2::3", "10.0.0.0/8/8", "10.0.0.0/-1", "fe80::1%eth0/64", "host/8", ":::1", "12345::/16",
        ])
    func invalidCIDR(_ text: String) {
        #expect(CIDR(text) == nil)
    }

    @Test(
        "listen addresses",
        arguments: [
            ("0.0.0.0:8080", "0.0.0.0", 8080), ("127.0.0.1:0", "127.0.0.1", 0), ("localhost:9090", "localhost", 9090),
            ("[::1]:8080", "::1", 8080), ("[::]:80", "::", 80), ("my-host.internal:65535", "my-host.internal", 65535),
        ])
    func listenAddresses(_ text: String, _ host: String, _ port: Int) throws {
        let address = try ListenAddress(text)
        #expect(address == ListenAddress(host: host, port: port))
        #expect(address.description == text)
    }

    @Test(
        "invalid listen addresses",
        arguments: [
            "", "8080", ":8080", "0.0.0.0", "0.0.0.0:", "0.0.0.0:65536", "0.0.0.0:-1", "0.0.0.0:http", "::1:8080",
            "[::1]", "[::1]8080", "[zz]:80", "[::1:80", "256.0.0.1:80", "bad host:80", "1.2.3:80",
        ])
    func invalidListenAddresses(_ text: String) {
        #expect(throws: ValueSyntaxError.self) { try ListenAddress(text) }
    }

    @Test("upstream URLs")
    func upstreamURLs() throws {
        let plain = try UpstreamURL("http://legacy:3000/api/objects?x=1")
        #expect(plain.scheme == "http" && plain.host == "legacy" && plain.port == 3000)
        #expect(plain.path == "/api/objects?x=1" && plain.origin == "http://legacy:3000")
        let secure = try UpstreamURL("HTTPS://Example.COM")
        #expect(secure.scheme == "https" && secure.host == "example.com" && secure.port == 443 && secure.path == "")
        #expect(secure.origin == "https://example.com:443")
        let v6 = try UpstreamURL("http://[::1]:8080/a")
        #expect(v6.host == "::1" && v6.origin == "http://[::1]:8080")
        #expect(try UpstreamURL("http://up").port == 80)
        // A problem never quotes a password: problems reach the log on a reload.
        #expect(
            throws: ValueSyntaxError(
                "user info in 'http://***@up/a' is not supported (send credentials from the client)")
        ) {
            try UpstreamURL("http://user:secret@up/a")
        }
        #expect(throws: ValueSyntaxError("'***@up/a' is not an absolute URL (expected http://HOST...)")) {
            try UpstreamURL("user:secret@up/a")
        }
        for bad in [
            "ftp://up/a", "http://", "http:///a", "http://user:pw@up/a", "http://up/a#frag", "http://up:0/",
            "http://up:99999/", "http://up/a b", "http://up/%zz", "http://up/{id}", "//up/a", "up/a", "http://[::1/a",
        ] {
            #expect(throws: ValueSyntaxError.self, "\(bad)") { try UpstreamURL(bad) }
        }
    }

    @Test("upstream templates substitute placeholders percent-encoded")
    func render() throws {
        let template = try UpstreamTemplate("http://legacy:3000/api/users/{id}/orders?kind={kind}")
        #expect(template.placeholderNames == ["id", "kind"])
        #expect(template.origin == "http://legacy:3000")
        #expect(template.render(["id": "42", "kind": "all"]) == "http://legacy:3000/api/users/42/orders?kind=all")
        // Everything but RFC 3986 unreserved characters is escaped, byte by byte in UTF-8.
        let value = "a/b?c#d e&f=g%h+i~j._-Ü"
        var expected = ""
        for byte in value.utf8 {
            let unreserved =
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || (0x30...0x39).contains(byte) || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte)
            expected +=
                unreserved
                ? String(UnicodeScalar(byte)) : "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }
        #expect(template.render(["id": value, "kind": ""]) == "http://legacy:3000/api/users/\(expected)/orders?kind=")
        #expect(expected == "a%2Fb%3Fc%23d%20e%26f%3Dg%25h%2Bi~j._-%C3%9C")
        let twice = try UpstreamTemplate("http://up/{a}-{a}")
        #expect(twice.render(["a": "x y"]) == "http://up/x%20y-x%20y")
        // Without placeholders the URL is the text, whatever parameters the path had.
        let fixed = try UpstreamTemplate("http://up/list.json?all=1")
        #expect(fixed.render([:]) == "http://up/list.json?all=1")
        #expect(fixed.render(["id": "x"]) == "http://up/list.json?all=1")
        for bad in [
            "http://{host}/a", "http://up/{a", "http://up/a}", "http://up/{1a}", "http://up/{}", "http://up/{a-b}",
        ] {
            #expect(throws: ValueSyntaxError.self, "\(bad)") { try UpstreamTemplate(bad) }
        }
    }
}
