import FolioConfiguration
import FolioEngine
import Testing

@testable import FolioGateway

@Suite("Route table (route matching)")
struct RouteTableTests {
    static let patterns = [
        "/objects",  // 0
        "/objects/",  // 1
        "/objects/{id}",  // 2
        "/objects/special",  // 3
        "/users/{id}/orders",  // 4
        "/users/{id}/{section}",  // 5
        "/users/me/{section}",  // 6
        "/{tenant}/items",  // 7
        "/caf%C3%A9",  // 8
        "/",  // 9
        "/a/{x}/c/{y}",  // 10
        "/a/b/{z}/d",  // 11
    ]

    static func table() throws -> RouteTable {
        RouteTable(patterns: try patterns.map { try RoutePattern($0) })
    }

    /// Expected route index and parameters, or nil for no match.
    @Test(
        "matching",
        arguments: [
            ("/objects", 0, [:]),
            ("/objects/", 1, [:]),
            ("/objects/42", 2, ["id": "42"]),
            ("/objects/special", 3, [:]),  // a literal beats a placeholder
            ("/objects/Special", 2, ["id": "Special"]),  // case-sensitive
            ("/objects/spec%69al", 3, [:]),  // compared after decoding
            ("/objects/%7Bid%7D", 2, ["id": "{id}"]),
            ("/objects/a%20b", 2, ["id": "a b"]),
            ("/objects/a+b", 2, ["id": "a+b"]),  // + is not a space in paths
            ("/objects/%C3%BC", 2, ["id": "ü"]),
            ("/users/7/orders", 4, ["id": "7"]),
            ("/users/7/profile", 5, ["id": "7", "section": "profile"]),
            ("/users/me/orders", 6, ["section": "orders"]),  // literal at the first differing position wins
            ("/acme/items", 7, ["tenant": "acme"]),
            ("/objects/items", 2, ["id": "items"]),  // literal "objects" beats {tenant} at segment 1
            ("/caf%C3%A9", 8, [:]),
            ("/caf%c3%a9", 8, [:]),  // hex case does not matter
            ("/", 9, [:]),
            ("/a/b/c/d", 11, ["z": "c"]),  // b beats {x} at segment 2
            ("/a/q/c/d", 10, ["x": "q", "y": "d"]),
        ] as [(String, Int, [String: String])])
    func matches(_ path: String, _ index: Int, _ parameters: [String: String]) throws {
        let match = try #require(try Self.table().match(rawPath: path[...]))
        #expect(match.routeIndex == index, "\(path) matched \(Self.patterns[match.routeIndex])")
        #expect(match.parameters == parameters)
    }

    @Test(
        "no match",
        arguments: [
            "/objects//", "/objects/42/", "/object", "/OBJECTS", "/users/7", "/users//orders", "/objects/42/x/y",
            "", "*", "objects", "/café/x", "//",
        ])
    func noMatch(_ path: String) throws {
        #expect(try Self.table().match(rawPath: path[...]) == nil)
    }

    @Test(
        "unsafe placeholder values are 400",
        arguments: [
            "/users/a%2Fb/orders", "/users/../orders", "/objects/..", "/objects/.", "/objects/%2E%2E", "/objects/%2e",
            "/objects/a%3Fb", "/objects/a%23b", "/objects/%2F",
        ])
    func unsafeValues(_ path: String) throws {
        let table = try Self.table()
        #expect {
            _ = try table.match(rawPath: path[...])
        } throws: { error in
            guard let refusal = error as? RouteTable.Refusal else { return false }
            return refusal.error.status == 400 && refusal.error.code == "invalid-path-parameter"
                && refusal.routeIndex != nil
        }
    }

    /// The gateway's view: which route's answer it is, also when the path is refused; a bad
    /// percent-encoding is refused before any route is chosen.
    @Test(
        "lookup names the route of a match and of a refusal",
        arguments: [
            ("/objects/42", "matched", 2), ("/objects/..", "refused", 2), ("/users/a%2Fb/orders", "refused", 4),
            ("/objects/%zz", "refused", nil), ("/nowhere/x/y", "unmatched", nil),
        ] as [(String, String, Int?)])
    func lookup(_ path: String, _ kind: String, _ routeIndex: Int?) throws {
        let lookup = try Self.table().lookup(rawPath: path[...])
        switch lookup {
        case .matched: #expect(kind == "matched")
        case .refused(let refusal):
            #expect(kind == "refused")
            #expect(refusal.error.status == 400)
        case .unmatched: #expect(kind == "unmatched")
        }
        #expect(lookup.routeIndex == routeIndex)
    }

    @Test("dots that are not a whole value are fine")
    func dots() throws {
        let match = try #require(try Self.table().match(rawPath: "/objects/...".dropFirst(0)))
        #expect(match.parameters == ["id": "..."])
        #expect(try Self.table().match(rawPath: "/objects/a.b")?.parameters == ["id": "a.b"])
    }

    @Test(
        "bad percent-encoding is 400",
        arguments: ["/objects/%", "/objects/%4", "/objects/%zz", "/objects/%C3", "/objects/%FF"])
    func badEncoding(_ path: String) throws {
        let table = try Self.table()
        #expect {
            _ = try table.match(rawPath: path[...])
        } throws: { error in
            (error as? RouteTable.Refusal)?.error.status == 400
        }
    }

    @Test("patterns")
    func patterns() throws {
        let pattern = try RoutePattern("/users/{id}/caf%C3%A9/")
        #expect(pattern.segments == [.literal("users"), .placeholder("id"), .literal("café"), .literal("")])
        #expect(pattern.placeholderNames == ["id"])
        #expect(try RoutePattern("/").segments == [.literal("")])
        for bad in [
            "", "objects", "/a//b", "/{id}/{id}", "/x{id}", "/{id}x", "/{1}", "/{}", "/a?b", "/a#b", "/%zz", "/{a b}",
        ] {
            #expect(throws: ValueSyntaxError.self, "\(bad)") { try RoutePattern(bad) }
        }
    }

    @Test(
        "two patterns match the same paths exactly when their shapes agree",
        arguments: [
            ("/a/{x}", "/a/{y}", true),
            ("/a/{x}", "/a/b", false),
            ("/a", "/a/", false),
            ("/a/b", "/a/b", true),
            ("/a/b", "/a/%62", true),
            ("/{x}/b", "/a/{y}", false),
            ("/{x}", "/{y}/{z}", false),
        ])
    func samePaths(_ a: String, _ b: String, _ expected: Bool) throws {
        let first = try RoutePattern(a)
        let second = try RoutePattern(b)
        #expect(first.matchesSamePaths(as: second) == expected)
        #expect(second.matchesSamePaths(as: first) == expected)
    }

    @Test("identical shapes keep the earlier route")
    func identicalShapes() throws {
        let table = RouteTable(patterns: [try RoutePattern("/a/{x}"), try RoutePattern("/a/{y}")])
        let match = try table.match(rawPath: "/a/1")
        #expect(match == RouteMatch(routeIndex: 0, parameters: ["x": "1"]))
    }
}
