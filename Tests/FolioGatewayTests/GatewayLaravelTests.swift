import FolioEngine
import Foundation
import HummingbirdTesting
import Testing

@testable import FolioGateway

/// docs/API.md, "Dialects", `laravel` end to end over `GatewayDialectTests`' routes: a Laravel pagination
/// component's walk, Folio's own parameters inside the paginator, its bytes and its errors.
@Suite struct GatewayLaravelTests {
    typealias Dialects = GatewayDialectTests

    @Test func followingNextPageURLVisitsEveryItemOnce() async throws {
        try await Dialects.withDialects { client in
            var seen: [String] = []
            var uri: String? = "/laravel/objects?per_page=10"
            var number = 1
            while let current = uri, number <= 10 {
                let response = try await Dialects.get(client, current)
                let page = try response.json
                #expect(page["current_page"] as? Int == number && page["last_page"] as? Int == 6)
                #expect(page["total"] as? Int == 53 && page["per_page"] as? Int == 10)
                #expect(page["from"] as? Int == (number - 1) * 10 + 1)
                #expect(page["to"] as? Int == min(number * 10, 53))
                #expect((page["next_page_url"] as? String) == Dialects.link(response, "next"))
                #expect((page["prev_page_url"] as? String) == (number == 1 ? nil : Dialects.link(response, "prev")))
                #expect((page["first_page_url"] as? String) == Dialects.link(response, "first"))
                #expect((page["last_page_url"] as? String) == Dialects.link(response, "last"))
                #expect(page["path"] as? String == "/laravel/objects")
                // Six pages: every number, the current one active, no gap.
                let links = try #require(page["links"] as? [[String: Any]])
                #expect(
                    links.map { $0["label"] as? String } == [
                        "&laquo; Previous", "1", "2", "3", "4", "5", "6",
                        "Next &raquo;",
                    ])
                #expect(
                    links.compactMap { $0["active"] as? Bool == true ? $0["label"] as? String : nil } == ["\(number)"])
                seen += try rawItems(response.text, key: "data")
                uri = page["next_page_url"] as? String
                number += 1
            }
            #expect(seen == Dialects.elements())
        }
    }

    /// A list of more pages than the window: the numbered links of page 9 of 27 with Laravel's gaps; each link a page
    /// the gateway serves as that page.
    @Test func linksAreLaravelsWindow() async throws {
        try await Dialects.withDialects { client in
            let response = try await Dialects.get(client, "/laravel/objects?per_page=2&page=9")
            let links = try #require(try response.json["links"] as? [[String: Any]])
            #expect(
                links.map { $0["label"] as? String ?? "" }
                    == [
                        "&laquo; Previous", "1", "2", "...", "6", "7", "8", "9", "10", "11", "12", "...", "26", "27",
                        "Next &raquo;",
                    ])
            #expect(links.filter { $0["label"] as? String == "..." }.allSatisfy { $0["url"] is NSNull })
            for link in links where link["label"] as? String != "..." {
                let url = try #require(link["url"] as? String)
                let page = try await Dialects.get(client, url).json
                let label = try #require(link["label"] as? String)
                let expected = Int(label) ?? (label.hasPrefix("&laquo;") ? 8 : 10)
                #expect(page["current_page"] as? Int == expected, "\(label): \(url)")
            }
        }
    }

    /// Sort, filters, search and `fields` inside the paginator give Folio's own page over the same list.
    @Test func foliosParametersGiveFoliosItems() async throws {
        try await Dialects.withDialects { client in
            for view in ["sort=-price", "price%5Bgte%5D=20&price%5Blt%5D=60&sort=id", "q=orst", "fields=id,price&id=4"]
            {
                let folio = try await Dialects.get(client, "/folio/objects?\(view)&pageSize=7&page=1")
                let laravel = try await Dialects.get(client, "/laravel/objects?\(view)&per_page=7&page=2")
                #expect(try rawItems(laravel.text, key: "data") == rawItems(folio.text), "\(view)")
                #expect(try laravel.json["total"] as? Int == folio.json.paging["totalCount"] as? Int, "\(view)")
            }
        }
    }

    /// Member order and number spellings byte for byte, as `toArray()` writes them (the metadata-only body: no items).
    @Test func bodyBytesAreToArrays() async throws {
        try await Dialects.withDialects { client in
            let response = try await Dialects.get(client, "/laravel/objects?per_page=20&page=3&metadataOnly")
            let next = try #require(Dialects.link(response, "first"))
            let token = try #require(next.components(separatedBy: "snapshot=").last)
            let url = { (page: Int) in "\"/laravel/objects?per_page=20&page=\(page)&snapshot=\(token)\"" }
            #expect(
                response.text
                    == #"{"current_page":3,"first_page_url":\#(url(1)),"from":41,"last_page":3,"#
                    + #""last_page_url":\#(url(3)),"links":[{"url":\#(url(2)),"label":"&laquo; Previous","active":false},"#
                    + #"{"url":\#(url(1)),"label":"1","active":false},{"url":\#(url(2)),"label":"2","active":false},"#
                    + #"{"url":\#(url(3)),"label":"3","active":true},{"url":null,"label":"Next &raquo;","active":false}],"#
                    + #""next_page_url":null,"path":"/laravel/objects","per_page":20,"prev_page_url":\#(url(2)),"#
                    + #""to":53,"total":53}"#)
            #expect(response.header("Content-Type") == "application/json")
        }
    }

    @Test func urlsAreAbsoluteWithPublicBaseURL() async throws {
        try await Dialects.withDialects(server: "publicBaseURL: https://api.example.com") { client in
            let page = try await Dialects.get(client, "/laravel/objects").json
            #expect(page["path"] as? String == "https://api.example.com/laravel/objects")
            #expect((page["next_page_url"] as? String)?.hasPrefix("https://api.example.com/laravel/objects?") == true)
        }
    }

    @Test func malformedParametersAreProblems() async throws {
        try await Dialects.withDialects { client in
            for uri in [
                "/laravel/objects?page=0", "/laravel/objects?per_page=x", "/laravel/objects?page=1&page=2",
                "/laravel/objects?sort=tag",
            ] {
                _ = try checkProblem(try await client.execute(uri: uri, method: .get), status: 400)
            }
        }
    }
}
