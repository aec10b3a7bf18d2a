import FolioEngine
import FolioTestSupport
import Foundation
import Testing

@testable import FolioConfiguration

@Suite("Configuration loading")
struct ConfigurationLoaderTests {
    @Test("a minimal file gets every default config/folio.yaml documents")
    func defaults() throws {
        let config = try ConfigurationLoader.parse(yaml: ConfigFixture.minimal, file: "f.yaml")
        let server = config.server
        #expect(server.listen == ListenAddress(host: "0.0.0.0", port: 8080))
        #expect(server.admin == ListenAddress(host: "127.0.0.1", port: 9090))
        #expect(server.adminToken == nil)
        #expect(server.publicBaseURL == nil)
        #expect(server.trustedProxies.isEmpty)
        #expect(server.idleTimeout == .seconds(60))
        #expect(server.shutdownDelay == .zero)
        #expect(server.drainTimeout == .seconds(10))
        #expect(server.fallbackUpstream == nil)
        #expect(server.cors.allowOrigins.isEmpty)
        #expect(config.logging.level == .info)
        #expect(config.logging.access == true)
        let limits = config.limits
        #expect(limits.maxUpstreamBytes == 256 * 1024 * 1024)
        #expect(limits.maxItems == 5_000_000)
        #expect(limits.maxJSONDepth == 128)
        #expect(limits.upstreamTimeout == .seconds(30))
        #expect(limits.connectTimeout == .seconds(5))
        #expect(limits.crawlTimeout == .seconds(300))
        #expect(limits.maxURLBytes == 8 * 1024)
        #expect(limits.maxHeaderBytes == 32 * 1024)
        #expect(limits.maxHeaderCount == 100)
        #expect(limits.maxRequestBodyBytes == 10 * 1024 * 1024)
        let cache = config.cache
        #expect(cache.maxBytes == 512 * 1024 * 1024)
        #expect(cache.ttl == .seconds(60))
        #expect(cache.staleWhileRevalidate == .seconds(30))
        #expect(cache.staleIfError == .seconds(300))
        #expect(cache.snapshotRetention == .seconds(600))
        let d = config.defaults
        #expect(d.pageSize == 25)
        #expect(d.maxPageSize == 500)
        #expect(d.overMaxPageSize == .clamp)
        #expect(d.params.pageSize == "pageSize" && d.params.offset == "offset" && d.params.page == "page")
        #expect(d.pageBase == 0)
        #expect(d.envelope == true)
        #expect(d.itemsKey == "objects")
        let route = try #require(config.routes.first)
        #expect(config.routes.count == 1)
        #expect(route.name == "objects")
        #expect(route.path.text == "/objects")
        #expect(route.upstream.text == "http://legacy:3000/api/objects")
        #expect(route.upstream.origin == "http://legacy:3000")
        #expect(route.items == .root)
        #expect(route.sort.keys.isEmpty && route.sortable.isEmpty && route.groupable.isEmpty)
        #expect(route.sectionKey == nil)
        #expect(route.vary.isEmpty && route.forwardQuery.isEmpty)
        #expect(route.authorized == .bypass)
        #expect(route.upstreamPaging == nil)
        #expect(route.paging == d)
        #expect(route.cache == cache)
    }

    @Test("config/folio.yaml documents every key and loads without problems")
    func exampleFile() throws {
        let path = ConfigFixture.packageRoot.appendingPathComponent("config/folio.yaml").path
        let config = try ConfigurationLoader.load(file: path, environment: [:])
        let minimal = try ConfigurationLoader.parse(yaml: ConfigFixture.minimal, file: "f.yaml")
        // Every value it shows is the default, and its one route is the minimal one.
        #expect(config == minimal)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // Every key the reader asks for, found by reading a file where every mapping is present.
        let documented = ConfigurationLoader.keysRead(
            yaml: """
                server: { cors: {}, compression: {}, watch: {} }
                logging: {}
                tracing: {}
                limits: {}
                cache: { redis: {} }
                defaults: { params: {} }
                routes:
                  - { name: r, path: /r, upstream: http://u/, params: {}, cache: {}, upstreamPaging: { style: page } }
                """)
        #expect(documented.count > 60, "every mapping was read: \(documented.sorted())")
        for key in [
            "listen", "allowOrigins", "encodings", "maxBytes", "sectionKey", "totalField", "offset", "sampleRatio",
            "localMaxBytes", "keyPrefix", "maxWatchers", "heartbeat",
        ] {
            #expect(documented.contains(key), "'\(key)' is read")
        }
        for key in documented.sorted() {
            #expect(text.contains("\(key):"), "config/folio.yaml does not mention '\(key)'")
        }
    }

    @Test("the commented-out upstreamPaging block of the example is itself valid")
    func exampleUpstreamPaging() throws {
        let path = ConfigFixture.packageRoot.appendingPathComponent("config/folio.yaml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let trimmed = line.drop(while: { $0 == " " })
            let indent = line.prefix(while: { $0 == " " })
            if !indent.isEmpty, trimmed.hasPrefix("# upstreamPaging:") || trimmed.hasPrefix("#   ") {
                return indent + String(trimmed.dropFirst(2))
            }
            return String(line)
        }.joined(separator: "\n")
        let config = try ConfigurationLoader.parse(yaml: uncommented, file: "f.yaml")
        let paging = try #require(config.routes.first?.upstreamPaging)
        #expect(paging.style == .linkHeader)
        #expect(paging.nextField.description == "/next" && paging.pageParam == "page" && paging.offsetParam == "offset")
        #expect(paging.sizeParam == "per_page" && paging.size == 100 && paging.firstPage == 1)
        #expect(paging.totalField == nil && paging.maxPages == 10_000 && paging.concurrency == 4)
    }

    @Test("route keys override defaults; params merge by name; route cache leaves the global maxBytes to the config")
    func overrides() throws {
        let yaml = """
            cache:
              maxBytes: 1GiB
              ttl: 2m
            defaults:
              pageSize: 50
              maxPageSize: 1000
              overMaxPageSize: reject
              params: { offset: skip }
              pageBase: 1
            routes:
              - name: a
                path: /a
                upstream: http://up/a
              - name: b
                path: /b
                upstream: https://up/b
                pageSize: 10
                maxPageSize: 20
                params: { pageSize: limit }
                envelope: false
                itemsKey: data
                cache: { ttl: 5s, staleIfError: 0s }
                upstreamPaging: { style: page, concurrency: 16, totalField: /total }
            """
        let config = try ConfigurationLoader.parse(yaml: yaml, file: "f.yaml")
        let a = config.routes[0].paging
        #expect(a.pageSize == 50 && a.maxPageSize == 1000 && a.overMaxPageSize == .reject && a.pageBase == 1)
        #expect(a.params == Configuration.ParamNames(pageSize: "pageSize", offset: "skip", page: "page"))
        #expect(config.routes[0].cache.ttl == .seconds(120))
        let b = config.routes[1]
        #expect(b.paging.pageSize == 10 && b.paging.maxPageSize == 20)
        #expect(b.paging.overMaxPageSize == .reject && b.paging.pageBase == 1)
        #expect(b.paging.params == Configuration.ParamNames(pageSize: "limit", offset: "skip", page: "page"))
        #expect(b.paging.envelope == false && b.paging.itemsKey == "data")
        #expect(b.cache.ttl == .seconds(5) && b.cache.staleIfError == .zero)
        // The bound is global: the config holds it, a route's copy does not (a new bound must
        // not make a reload see every route as changed).
        #expect(config.cache.maxBytes == 1 << 30)
        #expect(b.cache == config.routes[0].cache.with(ttl: .seconds(5), staleIfError: .zero))
        #expect(b.cache.maxBytes == Configuration.CacheSettings().maxBytes)
        #expect(b.cache.staleWhileRevalidate == .seconds(30) && b.cache.snapshotRetention == .seconds(600))
        #expect(b.upstreamPaging?.style == .page && b.upstreamPaging?.concurrency == 16)
        #expect(b.upstreamPaging?.totalField?.description == "/total")
        #expect(b.upstream.origin == "https://up:443")
        #expect(config.defaults.pageSize == 50)
    }

    @Test("every route key is read")
    func routeKeys() throws {
        let yaml = """
            server:
              listen: "[::1]:8081"
              admin: null
              adminToken: s3cret
              publicBaseURL: https://api.example.com/
              trustedProxies: [10.0.0.0/8, "::1"]
              fallbackUpstream: http://legacy:3000/
              cors: { allowOrigins: ["https://app.example.com"] }
            logging: { level: debug, access: false }
            routes:
              - name: orders
                path: /users/{id}/orders
                upstream: http://legacy/api/users/{id}/orders?all=1
                items: /data/items
                sort: [name, -price]
                sortable: [name, price]
                sectionKey: name
                groupable: [category, /meta/kind]
                vary: [Accept-Language]
                forwardQuery: [lang]
                authorized: perCredential
            """
        let config = try ConfigurationLoader.parse(yaml: yaml, file: "f.yaml")
        #expect(config.server.listen == ListenAddress(host: "::1", port: 8081))
        #expect(config.server.admin == nil)
        #expect(config.server.adminToken == "s3cret")
        #expect(config.server.publicBaseURL == "https://api.example.com")
        #expect(config.server.trustedProxies == [CIDR("10.0.0.0/8")!, CIDR("::1")!])
        #expect(config.server.fallbackUpstream?.origin == "http://legacy:3000")
        #expect(config.server.fallbackUpstream?.path == "")
        #expect(config.server.cors.allowOrigins == ["https://app.example.com"])
        #expect(config.logging == Configuration.LoggingSettings(level: .debug, access: false))
        let route = config.routes[0]
        #expect(route.path.segments == [.literal("users"), .placeholder("id"), .literal("orders")])
        #expect(route.upstream.render(["id": "a b"]) == "http://legacy/api/users/a%20b/orders?all=1")
        #expect(route.items.tokens == ["data", "items"])
        #expect(route.sort.texts == ["name", "-price"])
        #expect(route.sort.keys.map(\.descending) == [false, true])
        #expect(route.sortable == ["name", "price"])
        #expect(route.sectionKey?.text == "name")
        #expect(route.groupable.map(\.text) == ["category", "/meta/kind"])
        #expect(route.vary == ["Accept-Language"])
        #expect(route.forwardQuery == ["lang"])
        #expect(route.authorized == .perCredential)
    }

    @Test("FOLIO_ADMIN_TOKEN fills a null adminToken; the file wins when it sets one")
    func adminTokenFromEnvironment() throws {
        let env = ["FOLIO_ADMIN_TOKEN": "from-env"]
        let unset = try ConfigurationLoader.parse(yaml: ConfigFixture.minimal, file: "f", environment: env)
        #expect(unset.server.adminToken == "from-env")
        let set = try ConfigurationLoader.parse(
            yaml: "server: {adminToken: from-file}\n" + ConfigFixture.minimal, file: "f", environment: env)
        #expect(set.server.adminToken == "from-file")
        let empty = try ConfigurationLoader.parse(
            yaml: ConfigFixture.minimal, file: "f", environment: ["FOLIO_ADMIN_TOKEN": ""])
        #expect(empty.server.adminToken == nil)
    }

    @Test("FOLIO_LOG_LEVEL overrides logging.level; an invalid value is a problem")
    func logLevelFromEnvironment() throws {
        let yaml = "logging: {level: error}\n" + ConfigFixture.minimal
        let overridden = try ConfigurationLoader.parse(yaml: yaml, file: "f", environment: ["FOLIO_LOG_LEVEL": "TRACE"])
        #expect(overridden.logging.level == .trace)
        let kept = try ConfigurationLoader.parse(yaml: yaml, file: "f", environment: [:])
        #expect(kept.logging.level == .error)
        let problems = ConfigFixture.problems(yaml, environment: ["FOLIO_LOG_LEVEL": "loud"])
        #expect(problems.count == 1)
        #expect(problems.first?.path == "logging.level")
        #expect(problems.first?.message.contains("FOLIO_LOG_LEVEL") == true)
    }

    @Test("a missing file is one clear problem")
    func missingFile() {
        let path = "/nonexistent/folio-\(UInt64.random(in: 0...UInt64.max)).yaml"
        #expect {
            _ = try ConfigurationLoader.load(file: path, environment: [:])
        } throws: { error in
            guard let error = error as? ConfigurationError, error.problems.count == 1 else { return false }
            return error.description.hasPrefix("\(path):1:1: cannot read file")
        }
    }

    @Test("an empty file misses routes, reported at 1:1")
    func emptyFile() {
        let problems = ConfigFixture.problems("")
        #expect(
            problems.map(\.description) == ["test.yaml:1:1: routes: missing required key 'routes' (at least one route)"]
        )
    }

    @Test("problem and error descriptions")
    func descriptions() {
        let problem = ConfigurationProblem(
            file: "f.yaml", line: 3, column: 7, path: "routes[0].cache.ttl", message: "bad")
        #expect(problem.description == "f.yaml:3:7: routes[0].cache.ttl: bad")
        let error = ConfigurationError(problems: [problem, problem])
        #expect(error.description == "f.yaml:3:7: routes[0].cache.ttl: bad\nf.yaml:3:7: routes[0].cache.ttl: bad")
    }
}

extension Configuration.CacheSettings {
    fileprivate func with(ttl: Duration, staleIfError: Duration) -> Self {
        var copy = self
        copy.ttl = ttl
        copy.staleIfError = staleIfError
        return copy
    }
}
