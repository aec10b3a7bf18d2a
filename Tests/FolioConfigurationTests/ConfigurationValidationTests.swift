import FolioConfiguration
import FolioTestSupport
import Foundation
import Testing

/// One file with exactly one problem: where (the `occurrence`-th `at` text) and what.
struct ValidationCase: Sendable, CustomTestStringConvertible {
    let yaml: String
    let path: String
    let message: String
    let at: String
    var occurrence = 1

    var testDescription: String { "\(path): \(message)" }

    /// Checks that the file has exactly this one problem, at its key, with its key path.
    func expectReportedOnce(sourceLocation: SourceLocation = #_sourceLocation) {
        let problems = ConfigFixture.problems(yaml)
        #expect(problems.count == 1, "\(problems)", sourceLocation: sourceLocation)
        guard let problem = problems.first else { return }
        let expected = ConfigFixture.position(of: at, in: yaml, occurrence: occurrence)
        #expect(problem.path == path, sourceLocation: sourceLocation)
        #expect(problem.message.contains(message), "\(problem.message)", sourceLocation: sourceLocation)
        #expect(
            problem.line == expected.line && problem.column == expected.column, "\(problem)",
            sourceLocation: sourceLocation)
        #expect(problem.file == "test.yaml", sourceLocation: sourceLocation)
    }

    /// The minimal route with `lines` added to its mapping.
    static func route(_ lines: String...) -> String {
        ConfigFixture.minimal + "\n" + lines.map { "    " + $0 }.joined(separator: "\n")
    }
}

@Suite("Configuration validation")
struct ConfigurationValidationTests {
    static let cases: [ValidationCase] = [
        // Unknown keys, with a suggestion when close.
        .init(
            yaml: "defaults:\n  pagesize: 10\n" + ConfigFixture.minimal, path: "defaults.pagesize",
            message: "unknown key 'pagesize' (did you mean 'pageSize'?)", at: "pagesize"),
        .init(
            yaml: "serer:\n  listen: 0.0.0.0:1\n" + ConfigFixture.minimal, path: "serer",
            message: "unknown key 'serer' (did you mean 'server'?)", at: "serer"),
        .init(
            yaml: ValidationCase.route("cache: {ttl: 1s, maxBytes: 1MiB}"), path: "routes[0].cache.maxBytes",
            message: "unknown key 'maxBytes'", at: "maxBytes"),
        .init(
            yaml: ValidationCase.route("colour: red"), path: "routes[0].colour",
            message: "unknown key 'colour' (known here:", at: "colour"),
        // Wrong types.
        .init(
            yaml: "server: {listen: [a]}\n" + ConfigFixture.minimal, path: "server.listen",
            message: "expected a string, got a list", at: "listen"),
        .init(
            yaml: "limits: {maxItems: \"5\"}\n" + ConfigFixture.minimal, path: "limits.maxItems",
            message: "expected an integer, got the string '5'", at: "maxItems"),
        .init(
            yaml: "server: []\n" + ConfigFixture.minimal, path: "server",
            message: "expected a mapping, got a list", at: "server"),
        .init(yaml: "routes: {name: a}", path: "routes", message: "expected a list, got a mapping", at: "routes"),
        .init(
            yaml: ValidationCase.route("sort: name"), path: "routes[0].sort",
            message: "expected a list", at: "sort"),
        // Durations, sizes, booleans.
        .init(
            yaml: "server: {idleTimeout: 5 min}\n" + ConfigFixture.minimal, path: "server.idleTimeout",
            message: "invalid duration '5 min'", at: "idleTimeout"),
        .init(
            yaml: ValidationCase.route("cache:", "  ttl: 10"), path: "routes[0].cache.ttl",
            message: "invalid duration '10'", at: "ttl"),
        .init(
            yaml: "limits: {maxURLBytes: 8KB}\n" + ConfigFixture.minimal, path: "limits.maxURLBytes",
            message: "sizes are binary", at: "maxURLBytes"),
        .init(
            yaml: "logging: {access: yes}\n" + ConfigFixture.minimal, path: "logging.access",
            message: "expected true or false, got 'yes'", at: "access"),
        .init(
            yaml: ValidationCase.route("envelope: \"false\""), path: "routes[0].envelope",
            message: "expected true or false", at: "envelope"),
        // Required keys, pointing at the first key of the parent mapping.
        .init(
            yaml: "routes:\n  - path: /a\n    upstream: http://up/a", path: "routes[0].name",
            message: "missing required key 'name'", at: "path"),
        .init(
            yaml: "routes:\n  - name: a\n    upstream: http://up/a", path: "routes[0].path",
            message: "missing required key 'path'", at: "name"),
        .init(
            yaml: "routes:\n  - upstream: http://up/a\n    path: /a\n    name: a\n  - name: b\n    path: /b",
            path: "routes[1].upstream", message: "missing required key 'upstream'", at: "name", occurrence: 2),
        .init(
            yaml: "server:\n  listen: 0.0.0.0:1", path: "routes", message: "missing required key 'routes'", at: "server"
        ),
        .init(yaml: "logging: {}\nroutes: []", path: "routes", message: "at least one route", at: "routes"),
        .init(
            yaml: ValidationCase.route("upstreamPaging:", "  size: 10", "  maxPages: 3"),
            path: "routes[0].upstreamPaging.style", message: "missing required key 'style'", at: "size"),
        // Across routes.
        .init(
            yaml: ConfigFixture.minimal + "\n  - name: objects\n    path: /other\n    upstream: http://up/o",
            path: "routes[1].name", message: "duplicate route name 'objects'", at: "name", occurrence: 2),
        .init(
            yaml:
                "routes:\n  - {name: a, path: '/u/{x}/o', upstream: 'http://up/{x}'}\n  - {name: b, path: '/u/{y}/o', upstream: 'http://up/{y}'}",
            path: "routes[1].path", message: "matches the same paths as '/u/{x}/o'", at: "path", occurrence: 2),
        // Folio's own parameters.
        .init(
            yaml: ValidationCase.route("groupable: [color, sort]"), path: "routes[0].groupable[1]",
            message: "one of Folio's own parameters", at: "sort"),
        .init(
            yaml: ValidationCase.route("params: {pageSize: limit}", "groupable: [limit]"),
            path: "routes[0].groupable[0]",
            message: "one of Folio's own parameters", at: "limit", occurrence: 2),
        .init(
            yaml: ValidationCase.route("forwardQuery: [lang, offset]"), path: "routes[0].forwardQuery[1]",
            message: "one of Folio's own parameters", at: "offset"),
        .init(
            yaml: ValidationCase.route("forwardQuery: [snapshot]"), path: "routes[0].forwardQuery[0]",
            message: "one of Folio's own parameters", at: "snapshot"),
        .init(
            yaml: ValidationCase.route("forwardQuery: [q]"), path: "routes[0].forwardQuery[0]",
            message: "one of Folio's own parameters", at: "q"),
        .init(
            yaml: ValidationCase.route("groupable: [fields]"), path: "routes[0].groupable[0]",
            message: "one of Folio's own parameters", at: "fields"),
        .init(
            yaml: "defaults: {params: {page: metadataOnly}}\n" + ConfigFixture.minimal, path: "defaults.params.page",
            message: "already one of Folio's parameters", at: "page:"),
        .init(
            yaml: "defaults: {params: {page: offset}}\n" + ConfigFixture.minimal, path: "defaults.params.page",
            message: "'offset' names both offset and page", at: "page:"),
        // Ranges.
        .init(
            yaml: ValidationCase.route("upstreamPaging: {style: page, concurrency: 17}"),
            path: "routes[0].upstreamPaging.concurrency", message: "concurrency must be 1...16, got 17",
            at: "concurrency"),
        .init(
            yaml: ValidationCase.route("upstreamPaging: {style: page, concurrency: 0}"),
            path: "routes[0].upstreamPaging.concurrency", message: "concurrency must be 1...16, got 0",
            at: "concurrency"),
        .init(
            yaml: ValidationCase.route("upstreamPaging: {style: sideways}"),
            path: "routes[0].upstreamPaging.style", message: "expected one of linkHeader, nextField, page, offset",
            at: "style"),
        .init(
            yaml: "limits: {maxUpstreamBytes: 5GiB}\n" + ConfigFixture.minimal, path: "limits.maxUpstreamBytes",
            message: "at most 4GiB", at: "maxUpstreamBytes"),
        .init(
            yaml: "defaults: {pageSize: 0}\n" + ConfigFixture.minimal, path: "defaults.pageSize",
            message: "must be at least 1, got 0", at: "pageSize"),
        .init(
            yaml: ValidationCase.route("maxPageSize: 10"), path: "routes[0].maxPageSize",
            message: "maxPageSize (10) is below pageSize (25)", at: "maxPageSize"),
        .init(
            yaml: "defaults: {pageSize: 600}\n" + ConfigFixture.minimal, path: "defaults.pageSize",
            message: "maxPageSize (500) is below pageSize (600)", at: "pageSize"),
        // A size that does not read is reported alone, not compared again as its default.
        .init(
            yaml: "defaults: {pageSize: 600, maxPageSize: 9223372036854775807}\n" + ConfigFixture.minimal,
            path: "defaults.maxPageSize", message: "out of range: at most 18 digits", at: "maxPageSize"),
        .init(
            yaml: "defaults: {maxPageSize: 20, pageSize: abc}\n" + ConfigFixture.minimal, path: "defaults.pageSize",
            message: "expected an integer, got 'abc'", at: "pageSize"),
        .init(
            yaml: ValidationCase.route("pageBase: 2"), path: "routes[0].pageBase", message: "pageBase must be 0 or 1",
            at: "pageBase"),
        .init(
            yaml: ValidationCase.route("overMaxPageSize: Reject"), path: "routes[0].overMaxPageSize",
            message: "(did you mean 'reject'?)", at: "overMaxPageSize"),
        .init(
            yaml: "server: {idleTimeout: 0s}\n" + ConfigFixture.minimal, path: "server.idleTimeout",
            message: "must be greater than 0", at: "idleTimeout"),
        // URLs and paths.
        .init(
            yaml: "routes:\n  - {name: a, path: /a, upstream: 'ftp://up/a'}", path: "routes[0].upstream",
            message: "scheme 'ftp' is not supported", at: "upstream"),
        .init(
            yaml: "routes:\n  - {name: a, path: /a, upstream: 'http:///a'}", path: "routes[0].upstream",
            message: "has no host", at: "upstream"),
        .init(
            yaml: "routes:\n  - {name: a, path: /a, upstream: '/api/a'}", path: "routes[0].upstream",
            message: "not an absolute URL", at: "upstream"),
        .init(
            yaml: "routes:\n  - {name: a, path: '/u/{id}', upstream: 'http://up/u/{uid}'}", path: "routes[0].upstream",
            message: "placeholder {uid} does not appear in path '/u/{id}'", at: "upstream"),
        .init(
            yaml: "routes:\n  - {name: a, path: 'u/{id}', upstream: 'http://up/u'}", path: "routes[0].path",
            message: "must start with '/'", at: "path"),
        .init(
            yaml: "routes:\n  - {name: a, path: '/u/x{id}', upstream: 'http://up/u'}", path: "routes[0].path",
            message: "a placeholder must be a whole segment", at: "path"),
        .init(
            yaml: "routes:\n  - {name: a, path: '/u/{id}/{id}', upstream: 'http://up/u'}", path: "routes[0].path",
            message: "appears twice", at: "path"),
        .init(
            yaml: "server: {fallbackUpstream: 'http://legacy:3000/?x=1'}\n" + ConfigFixture.minimal,
            path: "server.fallbackUpstream", message: "cannot have a query", at: "fallbackUpstream"),
        .init(
            yaml: "server: {publicBaseURL: 'api.example.com'}\n" + ConfigFixture.minimal,
            path: "server.publicBaseURL", message: "not an absolute URL", at: "publicBaseURL"),
        .init(
            yaml: "server: {cors: {allowOrigins: ['https://app.example.com/']}}\n" + ConfigFixture.minimal,
            path: "server.cors.allowOrigins[0]", message: "is not an origin", at: "'https"),
        // JSON Pointers and fields.
        .init(
            yaml: ValidationCase.route("items: data"), path: "routes[0].items",
            message: "must be \"\" (the whole body) or start with '/'", at: "items"),
        .init(
            yaml: ValidationCase.route("items: /a~2b"), path: "routes[0].items", message: "'~' must be written ~0",
            at: "items"),
        .init(
            yaml: ValidationCase.route("upstreamPaging: {style: nextField, nextField: next}"),
            path: "routes[0].upstreamPaging.nextField", message: "is not a JSON Pointer", at: "nextField:"),
        .init(
            yaml: ValidationCase.route("upstreamPaging: {style: page, totalField: '/a~'}"),
            path: "routes[0].upstreamPaging.totalField", message: "is not a JSON Pointer", at: "totalField"),
        .init(
            yaml: ValidationCase.route("sort: [name, '-']"), path: "routes[0].sort[1]",
            message: "a field name cannot be empty", at: "'-'"),
        .init(
            yaml: ValidationCase.route("sortable: [-price]"), path: "routes[0].sortable[0]",
            message: "cannot start with '-'", at: "-price"),
        // Addresses and levels.
        .init(
            yaml: "server: {trustedProxies: [10.0.0.0/8, 10.0.0.0/33]}\n" + ConfigFixture.minimal,
            path: "server.trustedProxies[1]", message: "'10.0.0.0/33' is not a CIDR", at: "10.0.0.0/33"),
        .init(
            yaml: "server: {listen: '0.0.0.0:99999'}\n" + ConfigFixture.minimal, path: "server.listen",
            message: "'99999' is not a port", at: "listen"),
        .init(
            yaml: "server: {admin: localhost}\n" + ConfigFixture.minimal, path: "server.admin",
            message: "expected HOST:PORT", at: "admin"),
        .init(
            yaml: "server: {listen: '::1:8080'}\n" + ConfigFixture.minimal, path: "server.listen",
            message: "needs brackets", at: "listen"),
        // Two listeners on one port: the second could never bind.
        .init(
            yaml: "server: {listen: '127.0.0.1:9000', admin: '127.0.0.1:9000'}\n" + ConfigFixture.minimal,
            path: "server.admin", message: "cannot share a port", at: "admin"),
        .init(
            yaml: "server: {admin: '127.0.0.1:8080'}\n" + ConfigFixture.minimal, path: "server.admin",
            message: "127.0.0.1:8080 and server.listen (0.0.0.0:8080) cannot share a port", at: "admin"),
        .init(
            yaml: "server: {listen: '0.0.0.0:9090'}\n" + ConfigFixture.minimal, path: "server.listen",
            message: "server.admin (127.0.0.1:9090, the default) cannot share a port", at: "listen"),
        .init(
            yaml: "server: {listen: '[::]:9000', admin: '127.0.0.1:9000'}\n" + ConfigFixture.minimal,
            path: "server.admin", message: "cannot share a port", at: "admin"),
        .init(
            yaml: "logging: {level: verbose}\n" + ConfigFixture.minimal, path: "logging.level",
            message: "expected one of trace, debug, info, notice, warning, error, critical; got 'verbose'", at: "level"),
        .init(
            yaml: ValidationCase.route("authorized: public"), path: "routes[0].authorized",
            message: "expected one of bypass, perCredential, shared", at: "authorized"),
        .init(
            yaml: "routes:\n  - {name: 'my route', path: /a, upstream: 'http://up/a'}", path: "routes[0].name",
            message: "route names use letters", at: "name"),
        .init(
            yaml: ValidationCase.route("vary: ['Accept Language']"), path: "routes[0].vary[0]",
            message: "is not a header name", at: "'Accept"),
    ]

    @Test("each rule is reported once, at its key, with its key path", arguments: cases)
    func rule(_ c: ValidationCase) {
        c.expectReportedOnce()
    }

    @Test("nullable keys accept null; non-nullable ones do not")
    func nulls() throws {
        let ok =
            "server: {admin: null, adminToken: ~, publicBaseURL: null, fallbackUpstream: null}\n"
            + ValidationCase.route("sectionKey: null", "upstreamPaging: null")
        let config = try ConfigurationLoader.parse(yaml: ok, file: "f")
        #expect(config.server.admin == nil)
        // Different ports, port 0 (a free port each), or families that do not meet are fine.
        for server in [
            "{listen: '127.0.0.1:9000', admin: '127.0.0.1:9001'}", "{listen: '[::1]:0', admin: '[::1]:0'}",
            "{listen: '0.0.0.0:8080', admin: '[::1]:8080'}", "{listen: '127.0.0.1:9090', admin: '[::1]:9090'}",
        ] {
            #expect(ConfigFixture.problems("server: \(server)\n" + ConfigFixture.minimal).isEmpty, "\(server)")
        }
        #expect(config.routes[0].sectionKey == nil && config.routes[0].upstreamPaging == nil)
        let problems = ConfigFixture.problems("server: {listen: null}\n" + ConfigFixture.minimal)
        #expect(problems.map(\.message) == ["expected a string, got null"])
    }

    @Test("groupable and forwardQuery names are checked against the route's renamed params")
    func renamedParams() throws {
        // After renaming pageSize to limit, "pageSize" is an ordinary name again.
        let yaml = ValidationCase.route("params: {pageSize: limit}", "groupable: [pageSize]", "forwardQuery: [page2]")
        let config = try ConfigurationLoader.parse(yaml: yaml, file: "f")
        #expect(config.routes[0].groupable.map(\.text) == ["pageSize"])
    }

    @Test("every problem is reported at once, in file order")
    func allAtOnce() {
        let yaml = """
            server:
              listen: nowhere
              lisen: 0.0.0.0:1
            logging:
              access: no
            limits:
              maxUpstreamBytes: 8GiB
            routes:
              - name: a
                path: /a/{x}
                upstream: http://up/{y}
                upstreamPaging: {concurrency: 99}
              - name: a
                path: /a/{z}
                upstream: ftp://x
              - path: /c
            """
        let problems = ConfigFixture.problems(yaml)
        let paths = problems.map(\.path)
        #expect(
            paths == [
                "server.listen", "server.lisen", "logging.access", "limits.maxUpstreamBytes",
                "routes[0].upstream", "routes[0].upstreamPaging.style", "routes[0].upstreamPaging.concurrency",
                "routes[1].upstream", "routes[2].name", "routes[2].upstream",
            ], "\(problems)")
        let lines = problems.map(\.line)
        #expect(lines == lines.sorted())
        // The duplicate name and overlapping path need both routes valid; route 1's upstream is not.
        let fixed = yaml.replacingOccurrences(of: "ftp://x", with: "http://x").replacingOccurrences(
            of: "{y}", with: "{x}")
        let more = ConfigFixture.problems(fixed).map(\.path)
        #expect(more.contains("routes[1].name") && more.contains("routes[1].path"), "\(more)")
    }

    @Test("columns count Unicode scalars")
    func unicodeColumns() throws {
        // é written as e + U+0301 (2 scalars, 1 character) and an emoji (1 scalar, 2 UTF-16 units, 4 bytes).
        let yaml = "routes:\n  - {name: x, path: \"/caf\u{65}\u{301}/\u{1F600}\", upstream: 'http://up/a', colr: 1}"
        let problem = try #require(ConfigFixture.problems(yaml).first)
        let line = yaml.split(separator: "\n")[1]
        let prefix = line[..<line.range(of: "colr")!.lowerBound]
        #expect(problem.path == "routes[0].colr")
        #expect(problem.line == 2)
        #expect(problem.column == prefix.unicodeScalars.count + 1)
        #expect(prefix.unicodeScalars.count != prefix.count && prefix.unicodeScalars.count != prefix.utf16.count)
    }

    @Test("a YAML syntax error stops parsing and is reported alone, with its position")
    func syntaxError() {
        let yaml = "server:\n  listen: [0.0.0.0:1\nlogging: {access: maybe}\n" + ConfigFixture.minimal
        let problems = ConfigFixture.problems(yaml)
        #expect(problems.count == 1)
        #expect(problems.first?.path == "")
        #expect(problems.first?.message.hasPrefix("YAML syntax error") == true, "\(problems)")
        #expect((problems.first?.line ?? 0) >= 2)
    }

    /// `folio validate` prints one line per problem (docs/CONFIG.md, "Grammar and validation"), whatever a key or value
    /// holds.
    @Test("line breaks and control characters of keys and values are escaped in the problem line")
    func problemLinesStayOneLine() {
        let yaml = #"server: {"bad\nkey": 1, listen: "x\ny\u001B[2J\u2028\u202E"}"# + "\n" + ConfigFixture.minimal
        let problems = ConfigFixture.problems(yaml)
        #expect(problems.count == 2, "\(problems)")
        for problem in problems {
            let controls = problem.description.unicodeScalars.filter {
                [.control, .lineSeparator, .format].contains($0.properties.generalCategory)
            }
            #expect(controls.isEmpty, "\(problem.description)")
        }
        #expect(problems.contains { $0.description.contains(#"server.bad\nkey: unknown key 'bad\nkey'"#) })
        #expect(
            problems.contains { $0.description.contains(#"x\ny\u{1B}[2J\u{2028}\u{202E}"#) },
            "\(problems.map(\.description))")
    }

    @Test("a tab used for indentation is named")
    func tabIndentation() {
        let problems = ConfigFixture.problems("server:\n\tlisten: 0.0.0.0:1\n" + ConfigFixture.minimal)
        #expect(problems.count == 1)
        #expect(problems.first?.line == 2 && problems.first?.column == 1)
        #expect(problems.first?.message.contains("tabs") == true, "\(problems)")
    }

    @Test("a duplicate key stops parsing and is reported alone, at its second occurrence")
    func duplicateKey() {
        let yaml =
            "server:\n  listen: 0.0.0.0:1\n  admin: null\n  listen: 0.0.0.0:2\nlogging: {access: maybe}\n"
            + ConfigFixture.minimal
        let problems = ConfigFixture.problems(yaml)
        #expect(problems.count == 1)
        let expected = ConfigFixture.position(of: "listen", in: yaml, occurrence: 2)
        #expect(problems.first?.line == expected.line && problems.first?.column == expected.column, "\(problems)")
        #expect(problems.first?.message.contains("duplicate key 'listen'") == true)
    }

    @Test("a duplicate key in a flow mapping is reported at the first occurrence")
    func duplicateKeyFlow() {
        let yaml = "server: {listen: 0.0.0.0:1, listen: 0.0.0.0:2}\n" + ConfigFixture.minimal
        let problems = ConfigFixture.problems(yaml)
        #expect(problems.count == 1)
        let expected = ConfigFixture.position(of: "listen", in: yaml)
        #expect(problems.first?.line == expected.line && problems.first?.column == expected.column, "\(problems)")
    }
}
