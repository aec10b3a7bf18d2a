import FolioEngine

/// libFuzzer entry: a query string (and, after the first newline, a `Range` header) through
/// `QueryString.parse` and `ListRequest.interpret` on two route shapes of Folio's own and one route per other dialect.
///
/// Checks, beyond "never crashes" and "only `FolioError`s":
/// - an accepted request is within the route's bounds (page size 1…max, offset 0…2^53);
/// - every link Folio would write for it (first/prev/next/last) is accepted by Folio again and
///   names the same slice parameters, page size and kept parameters;
/// - `beginsWith` and filter values fold without trapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let (query, range): (Substring, String?) =
        if let newline = text.utf8.firstIndex(of: UInt8(ascii: "\n")) {
            (text[..<newline], String(text[text.utf8.index(after: newline)...]))
        } else {
            (text[...], nil)
        }
    for options in routeShapes { check(query, range: range, options: options) }
    return 0
}

let routeShapes =
    [
        PagingOptions(defaultPageSize: 25, maxPageSize: 500, overMax: .clamp, groupable: ["tag"]),
        PagingOptions(
            defaultPageSize: 10, maxPageSize: 50, overMax: .reject,
            names: ParameterNames(pageSize: "limit", offset: "skip", page: "p"), pageBase: 1,
            groupable: ["kind", "tag"]),
    ]
    // Every other dialect's parameters (docs/API.md, "Dialects"), with a filterable field for their filter syntaxes.
    + Dialect.all.filter { $0 != .folio }.map { dialect in
        PagingOptions(
            defaultPageSize: 10, maxPageSize: 50, overMax: .clamp, groupable: ["tag"], filterable: ["price"],
            dialect: dialect)
    }

func check(_ query: Substring, range: String?, options: PagingOptions) {
    let parameters: [QueryParameter]
    let request: ListRequest
    do throws(FolioError) {
        parameters = try QueryString.parse(query)
        request = try ListRequest.interpret(parameters, options: options, rangeHeader: range)
    } catch {
        guard error.status == 400 else { fatalError("a bad query must be a 400, got \(error)") }
        return
    }
    guard (1...options.maxPageSize).contains(request.pageSize), (0...(1 << 53)).contains(request.offset) else {
        fatalError("out of bounds: \(request) for \(query.debugDescription)")
    }
    if let beginsWith = request.beginsWith { _ = Folding.title(forBeginsWith: beginsWith) }
    for filter in request.filters { _ = Folding.fold(filter.value) }
    _ = request.normalizedQuery

    for total in [0, 1, 37, 1 << 40] {
        let paging = Paging(
            totalCount: total, offset: request.offset, pageSize: request.pageSize, pageBase: options.pageBase)
        let links = LinkBuilder(base: "/objects", request: request, options: options, snapshot: "s1")
        let urls = links.urls(paging)
        _ = links.linkHeader(paging)
        for case let url? in [urls.first, urls.previous, urls.next, urls.last] {
            checkLink(url, from: request, options: options)
        }
    }
}

/// A link must be a request Folio accepts for the same slice size and kept parameters.
func checkLink(_ url: String, from request: ListRequest, options: PagingOptions) {
    guard let question = url.utf8.firstIndex(of: UInt8(ascii: "?")) else { fatalError("link without a query: \(url)") }
    for byte in url.utf8 where byte <= 0x20 || byte >= 0x7F || "\"<>\\^`{|}".utf8.contains(byte) {
        fatalError("link holds a byte no URI may hold (\(byte)): \(url.debugDescription)")
    }
    let linked: ListRequest
    do throws(FolioError) {
        linked = try ListRequest.interpret(
            try QueryString.parse(url[url.utf8.index(after: question)...]), options: options, rangeHeader: nil)
    } catch {
        fatalError("Folio rejects its own link \(url.debugDescription): \(error)")
    }
    guard linked.pageSize == request.pageSize, linked.style == request.style, linked.spelling == request.spelling,
        linked.snapshot == "s1",
        linked.kept.map(\.key) == request.kept.map(\.key), linked.kept.map(\.value) == request.kept.map(\.value)
    else {
        fatalError("link \(url.debugDescription) changes the request: \(linked) vs \(request)")
    }
}
