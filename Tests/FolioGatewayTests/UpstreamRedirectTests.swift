import Testing

@testable import FolioGateway

@Suite("Upstream redirects")
struct UpstreamRedirectTests {
    private let current = "http://api.internal:3000/v1/objects?page=1"
    private var origin: Origin { Origin(current)! }

    @Test(arguments: [
        ("/v2/objects", "http://api.internal:3000/v2/objects"),
        ("next?page=2", "http://api.internal:3000/v1/next?page=2"),
        ("../up", "http://api.internal:3000/up"),
        ("http://API.internal:3000/x", "http://API.internal:3000/x"),
        ("//api.internal:3000/x", "http://api.internal:3000/x"),
        ("/x#frag", "http://api.internal:3000/x"),
        ("http://user:pw@api.internal:3000/x", "http://api.internal:3000/x"),
    ])
    func followsWithinTheOrigin(location: String, expected: String) throws {
        #expect(try SameOriginLink.resolve(location, from: current, within: origin) == expected)
    }

    @Test(arguments: [
        "http://api.internal:3001/x",
        "https://api.internal:3000/x",
        "http://other.internal:3000/x",
        "//other.internal:3000/x",
        "http://api.internal:3000@other.internal/x",
        "http://api.internal/x",
        "ftp://api.internal:3000/x",
    ])
    func refusesOtherOrigins(location: String) {
        #expect(throws: SameOriginLink.Refusal.foreignOrigin) {
            try SameOriginLink.resolve(location, from: current, within: origin)
        }
    }

    @Test func defaultPortsAreTheSameOrigin() {
        #expect(Origin("http://h/x") == Origin("http://h:80/y"))
        #expect(Origin("https://h/x") == Origin("https://H:443/"))
        #expect(Origin("http://h/x") != Origin("https://h/x"))
        #expect(Origin("http://h:8080/x") != Origin("http://h/x"))
    }

    @Test func onlyRealRedirectStatusesAreFollowed() {
        #expect([301, 302, 303, 307, 308].allSatisfy(Redirect.isRedirect))
        #expect(![300, 304, 305, 306, 200, 404].contains(where: Redirect.isRedirect))
    }
}
