import Testing

@testable import FolioGateway

/// What an upstream answer's caching headers allow, as a table: headers in, (storable, fresh
/// seconds, must-revalidate) out; the route's fallback ttl is 30 s.
@Suite("Freshness reads caching headers as a shared cache")
struct FreshnessTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var headers: [String: String]
        var storable = true
        var seconds: Int64
        var mustRevalidate = false
        var credentialPartition = false
        var sharedWithCredentials = false
        var testDescription: String { headers.map { "\($0): \($1)" }.sorted().joined(separator: "; ") }
    }

    static let rows: [Row] = [
        Row(headers: [:], seconds: 30),
        Row(headers: ["Cache-Control": "max-age=120"], seconds: 120),
        Row(headers: ["Cache-Control": "max-age=120", "Age": "100"], seconds: 20),
        Row(headers: ["Cache-Control": "max-age=120", "Age": "500"], seconds: 0),
        // s-maxage implies proxy-revalidate (RFC 9111 5.2.2.10).
        Row(headers: ["Cache-Control": "max-age=120, s-maxage=7"], seconds: 7, mustRevalidate: true),
        Row(headers: ["Cache-Control": "s-maxage=30"], seconds: 30, mustRevalidate: true),
        // A lifetime given twice (one header line or two, joined): stale when they differ.
        Row(headers: ["Cache-Control": "max-age=10, max-age=20"], seconds: 0),
        Row(headers: ["Cache-Control": "max-age=10, public, MAX-AGE=10"], seconds: 10),
        Row(headers: ["Cache-Control": "s-maxage=10, s-maxage=30, max-age=60"], seconds: 0, mustRevalidate: true),
        Row(headers: ["Cache-Control": "public, MAX-AGE=\"45\""], seconds: 45),
        Row(headers: ["Cache-Control": "max-age=abc"], seconds: 0),
        Row(headers: ["Cache-Control": "max-age=-1"], seconds: 0),
        Row(headers: ["Cache-Control": "no-cache"], seconds: 0, mustRevalidate: true),
        Row(headers: ["Cache-Control": "max-age=60, must-revalidate"], seconds: 60, mustRevalidate: true),
        Row(headers: ["Cache-Control": "max-age=60, proxy-revalidate"], seconds: 60, mustRevalidate: true),
        Row(headers: ["Cache-Control": "no-store, max-age=60"], storable: false, seconds: 0),
        Row(headers: ["Cache-Control": "private, max-age=60"], storable: false, seconds: 0),
        Row(headers: ["Cache-Control": "private, max-age=60"], seconds: 60, credentialPartition: true),
        Row(headers: ["Set-Cookie": "a=b"], storable: false, seconds: 0),
        Row(headers: ["Vary": "Accept, *"], storable: false, seconds: 0),
        Row(headers: ["Vary": "Authorization"], seconds: 30),
        Row(headers: ["Vary": "Accept, Cookie"], storable: false, seconds: 0, sharedWithCredentials: true),
        Row(
            headers: ["Expires": "Thu, 01 Jan 2026 00:10:00 GMT", "Date": "Thu, 01 Jan 2026 00:00:00 GMT"], seconds: 600
        ),
        Row(headers: ["Expires": "0"], seconds: 0),
        Row(headers: ["Expires": "Thu, 01 Jan 2026 00:10:00 GMT", "Cache-Control": "max-age=5"], seconds: 5),
    ]

    @Test(arguments: rows)
    func headersGiveFreshness(_ row: Row) {
        let lowered = Dictionary(uniqueKeysWithValues: row.headers.map { ($0.key.lowercased(), $0.value) })
        let freshness = Freshness.of(
            header: { lowered[$0] }, defaultTTL: .seconds(30), credentialPartition: row.credentialPartition,
            sharedWithCredentials: row.sharedWithCredentials)
        #expect(freshness.storable == row.storable)
        #expect(freshness.lifetime == .seconds(row.seconds))
        #expect(freshness.mustRevalidate == row.mustRevalidate)
        #expect((freshness.reason == nil) == row.storable)
    }

    @Test func theUpstreamsAgeIsKept() {
        let headers = ["cache-control": "max-age=120", "age": "100"]
        #expect(Freshness.of(header: { headers[$0] }, defaultTTL: .seconds(30)).age == .seconds(100))
        let crawled = Freshness.of(header: { headers[$0] }, defaultTTL: .seconds(30))
            .crawled(with: Freshness.of(header: { _ in nil }, defaultTTL: .seconds(30)))
        #expect(crawled.age == .seconds(100), "a crawl is as old as its oldest page")
    }

    @Test func validatorsAreKeptForRevalidation() {
        let headers = ["etag": #""v7""#, "last-modified": "Thu, 01 Jan 2026 00:00:00 GMT"]
        let freshness = Freshness.of(header: { headers[$0] }, defaultTTL: .seconds(30))
        #expect(freshness.etag == #""v7""#)
        #expect(freshness.lastModified == "Thu, 01 Jan 2026 00:00:00 GMT")
    }
}
