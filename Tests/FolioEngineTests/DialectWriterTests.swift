import Foundation
import Testing

@testable import FolioEngine

/// docs/API.md, "Dialects" bodies: each dialect's shape around the items' exact bytes.
@Suite struct DialectWriterTests {
    /// Elements with unusual spacing and escapes, so a re-encoding would show.
    static let elements = ["1.0", #"{"a" : "\u00e9"}"#, "[ ]", "true", "null"]

    static func page(
        _ dialect: Dialect, offset: Int, pageSize: Int = 2, metadataOnly: Bool = false, total: Int? = nil
    ) -> String {
        var bytes: [UInt8] = Array("[".utf8)
        var starts: [UInt32] = []
        var ends: [UInt32] = []
        for element in elements.prefix(total ?? elements.count) {
            if !starts.isEmpty { bytes += Array(" , ".utf8) }
            starts.append(UInt32(bytes.count))
            bytes += Array(element.utf8)
            ends.append(UInt32(bytes.count))
        }
        let list = ItemList(bytes: bytes + Array("]".utf8), starts: starts, ends: ends)
        let options = PagingOptions(dialect: dialect)
        let request = ListRequest(offset: offset, pageSize: pageSize)
        var spelled = request
        spelled.spelling = dialect.pagingModes(options.names, 0).first?.spelling
        let links = LinkBuilder(base: "/o", request: spelled, options: options, snapshot: "T")
        let paging = Paging(totalCount: list.count, offset: offset, pageSize: pageSize, pageBase: 0)
        let body = dialect.body(
            DialectPage(
                view: ListView(list: list), paging: paging, links: links, itemsKey: "objects", fields: nil,
                metadataOnly: metadataOnly, envelope: true))
        return String(decoding: body, as: UTF8.self)
    }

    @Test func drfPage() {
        #expect(
            Self.page(.drf, offset: 2)
                == #"{"count":5,"next":"/o?page_size=2&page=3&snapshot=T","#
                + #""previous":"/o?page_size=2&page=1&snapshot=T","results":[[ ],true]}"#)
        #expect(
            Self.page(.drf, offset: 0, metadataOnly: true)
                == #"{"count":5,"next":"/o?page_size=2&page=2&snapshot=T","previous":null}"#)
        #expect(Self.page(.drf, offset: 0, total: 0) == #"{"count":0,"next":null,"previous":null,"results":[]}"#)
    }

    @Test func halPageLeavesOutAbsentRels() {
        #expect(
            Self.page(.hal, offset: 4)
                == #"{"_embedded":{"objects":[null]},"_links":{"first":{"href":"/o?size=2&page=0&snapshot=T"},"#
                + #""prev":{"href":"/o?size=2&page=1&snapshot=T"},"self":{"href":"/o?size=2&page=2&snapshot=T"},"#
                + #""last":{"href":"/o?size=2&page=2&snapshot=T"}},"#
                + #""page":{"size":2,"totalElements":5,"totalPages":3,"number":2}}"#)
        #expect(
            Self.page(.hal, offset: 0, metadataOnly: true)
                == #"{"_links":{"first":{"href":"/o?size=2&page=0&snapshot=T"},"#
                + #""self":{"href":"/o?size=2&page=0&snapshot=T"},"next":{"href":"/o?size=2&page=1&snapshot=T"},"#
                + #""last":{"href":"/o?size=2&page=2&snapshot=T"}},"#
                + #""page":{"size":2,"totalElements":5,"totalPages":3,"number":0}}"#)
    }

    @Test func bareDialectsWriteTheArrayAndFoliosMetadata() throws {
        for dialect in [Dialect.jsonServer, .simpleRest] {
            #expect(Self.page(dialect, offset: 0) == #"[1.0,{"a" : "\u00e9"}]"#)
            let metadata = Self.page(dialect, offset: 0, metadataOnly: true)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(metadata.utf8)) as? [String: Any])
            #expect(Array(object.keys) == ["paging"])
        }
        #expect(Self.page(.simpleRest, offset: 0, metadataOnly: true).contains("range=%5B2%2C3%5D&snapshot=T"))
        #expect(Self.page(.jsonServer, offset: 0, metadataOnly: true).contains("_limit=2&_page=2&snapshot=T"))
    }

    @Test func contentRangeOfAPage() {
        #expect(ContentRange.page(unit: "posts", items: 0..<25, total: 319) == "posts 0-24/319")
        #expect(ContentRange.page(unit: "posts", items: 0..<0, total: 0) == "posts */0")
        #expect(ContentRange.page(unit: "posts", items: 319..<319, total: 319) == "posts */319")
    }
}
