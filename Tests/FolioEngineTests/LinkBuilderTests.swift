import Testing

@testable import FolioEngine

@Suite struct LinkBuilderTests {
    func links(
        _ query: String, base: String = "/objects", options: PagingOptions = PagingOptions(), snapshot: String = "tok"
    ) throws -> (LinkBuilder, ListRequest) {
        let request = try ListRequest.interpret(QueryString.parse(Substring(query)), options: options, rangeHeader: nil)
        let builder = LinkBuilder(
            base: base, kept: request.kept, names: options.names, style: request.style,
            pageSize: request.pageSize, pageBase: options.pageBase, snapshot: snapshot)
        return (builder, request)
    }

    @Test func specExampleLinks() throws {
        let (builder, request) = try links("pageSize=25&offset=50", snapshot: "k3J9xQ2bLm0aZ8Yt")
        let paging = Paging(totalCount: 1337, offset: request.offset, pageSize: request.pageSize, pageBase: 0)
        #expect(builder.url(offset: 0) == "/objects?pageSize=25&offset=0&snapshot=k3J9xQ2bLm0aZ8Yt")
        #expect(
            builder.linkHeader(paging)
                == [
                    #"</objects?pageSize=25&offset=0&snapshot=k3J9xQ2bLm0aZ8Yt>; rel="first""#,
                    #"</objects?pageSize=25&offset=25&snapshot=k3J9xQ2bLm0aZ8Yt>; rel="prev""#,
                    #"</objects?pageSize=25&offset=75&snapshot=k3J9xQ2bLm0aZ8Yt>; rel="next""#,
                    #"</objects?pageSize=25&offset=1325&snapshot=k3J9xQ2bLm0aZ8Yt>; rel="last""#,
                ].joined(separator: ", "))
    }

    @Test func absentRelsAreOmitted() throws {
        let (builder, _) = try links("")
        let first = Paging(totalCount: 10, offset: 0, pageSize: 25, pageBase: 0)
        #expect(
            builder.linkHeader(first)
                == #"</objects?pageSize=25&offset=0&snapshot=tok>; rel="first", </objects?pageSize=25&offset=0&snapshot=tok>; rel="last""#
        )
    }

    @Test func keepsOtherParametersVerbatimThenPagingThenSnapshot() throws {
        let (builder, _) = try links("b=%41+x&pageSize=10&snapshot=old&a=1&a=1&metadataOnly&sort=-name&offset=20&u=%7e")
        #expect(
            builder.url(offset: 30) == "/objects?b=%41+x&a=1&a=1&sort=-name&u=%7e&pageSize=10&offset=30&snapshot=tok")
    }

    @Test func pageStyleWithRenamesAndBase() throws {
        let options = PagingOptions(names: ParameterNames(pageSize: "limit", offset: "skip", page: "p"), pageBase: 1)
        let (builder, request) = try links(
            "pageSize=3&limit=10&p=2", base: "https://api.example.com/objects", options: options)
        #expect(request.offset == 10)
        #expect(builder.url(offset: 20) == "https://api.example.com/objects?pageSize=3&limit=10&p=3&snapshot=tok")
        #expect(builder.url(offset: 0) == "https://api.example.com/objects?pageSize=3&limit=10&p=1&snapshot=tok")
    }

    @Test func clampedPageSizeIsWhatLinksCarry() throws {
        let (builder, _) = try links("pageSize=9999")
        #expect(builder.url(offset: 500) == "/objects?pageSize=500&offset=500&snapshot=tok")
    }

    @Test func bytesNoURIMayHoldAreEncoded() throws {
        // A raw query as a lenient HTTP parser might pass it: spaces, quotes, angle brackets, UTF-8.
        let (builder, _) = try links(#"q=a b&r="<x>"&k=日"#)
        #expect(
            builder.url(offset: 0) == "/objects?q=a%20b&r=%22%3Cx%3E%22&k=%E6%97%A5&pageSize=25&offset=0&snapshot=tok")
        let odd = LinkBuilder(
            base: "/o", kept: [], names: ParameterNames(), style: .offset, pageSize: 1, pageBase: 0,
            snapshot: "a b&c")
        #expect(odd.url(offset: 0) == "/o?pageSize=1&offset=0&snapshot=a%20b%26c")
    }
}
