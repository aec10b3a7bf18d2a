extension Dialect {
    /// Laravel 10's `LengthAwarePaginator` as `toArray()` writes it (what laravel-vue-pagination and the like
    /// read): `page` (first page 1) and `per_page`; Folio's `sort` and filters. Body
    /// `{"current_page","data","first_page_url","from","last_page","last_page_url","links","next_page_url","path",
    /// "per_page","prev_page_url","to","total"}`, `links` as `linkCollection()` with `onEachSide` 3.
    ///
    /// Renames in `params` apply: `pageSize` renames `per_page`, `page` renames `page`.
    public static let laravel = Dialect(
        name: "laravel",
        pagingModes: { names, _ in
            [
                PagingMode(
                    size: PagingMode.name("per_page", renamed: names.pageSize, folioDefault: "pageSize"),
                    position: .page(PagingMode.name("page", renamed: names.page, folioDefault: "page"), base: 1))
            ]
        },
        sort: .folio, filter: nil, comparisonSuffixes: [],
        contentType: "application/json", contentRangeOnPages: false,
        page: { page in [UInt8](exactly: LaravelPage(page: page, withItems: true)) },
        metadata: { page in [UInt8](exactly: LaravelPage(page: page, withItems: false)) })
}

/// Laravel's paginator array; without `data` for `metadataOnly`. Its numbers are Laravel's: `current_page` is the
/// page holding the first item asked for, `last_page` at least 1, `from`/`to` 1-based and `null` on an empty page,
/// `prev_page_url` the page before the current one even past the end.
private struct LaravelPage: ByteWritable {
    let paging: Paging
    let path: String
    let current: Int
    let last: Int
    let items: PageItems?
    let window: [LaravelWindow.Entry]
    /// The URL of each page number the body names, built once (the body is written twice: counted, then stored).
    let urls: [(number: Int, url: String)]

    init(page: DialectPage, withItems: Bool) {
        paging = page.paging
        path = page.links.path
        let current = paging.offset / paging.pageSize + 1
        let last = max(paging.pageCount, 1)
        self.current = current
        self.last = last
        items = withItems ? page.items : nil
        window = LaravelWindow.entries(current: current, last: last)
        // The previous page of a page past the end is past the end too (Laravel's `currentPage - 1`).
        var numbers = [1, last, current - 1, current + 1].filter { $0 >= 1 && ($0 <= last || $0 == current - 1) }
        for case .page(let number) in window where !numbers.contains(number) { numbers.append(number) }
        let pageSize = paging.pageSize
        urls = numbers.map { ($0, page.links.url(offset: ($0 - 1) * pageSize)) }
    }

    /// The URL of page `number` (1-based, one of those built in `init`).
    private func url(_ number: Int) -> String {
        urls.first { $0.number == number }!.url
    }

    func write(to sink: inout some ByteSink) {
        let shown = paging.items
        sink.write("{\"current_page\":")
        sink.writeDecimal(current)
        if let items {
            sink.write(",\"data\":")
            items.write(to: &sink)
        }
        sink.write(",\"first_page_url\":")
        JSONText.writeString(url(1), to: &sink)
        sink.write(",\"from\":")
        writeNumber(shown.isEmpty ? nil : shown.lowerBound + 1, to: &sink)
        sink.write(",\"last_page\":")
        sink.writeDecimal(last)
        sink.write(",\"last_page_url\":")
        JSONText.writeString(url(last), to: &sink)
        sink.write(",\"links\":")
        writeLinks(to: &sink)
        sink.write(",\"next_page_url\":")
        JSONText.writeLink(current < last ? url(current + 1) : nil, to: &sink)
        sink.write(",\"path\":")
        JSONText.writeString(path, to: &sink)
        sink.write(",\"per_page\":")
        sink.writeDecimal(paging.pageSize)
        sink.write(",\"prev_page_url\":")
        JSONText.writeLink(current > 1 ? url(current - 1) : nil, to: &sink)
        sink.write(",\"to\":")
        writeNumber(shown.isEmpty ? nil : shown.upperBound, to: &sink)
        sink.write(",\"total\":")
        sink.writeDecimal(paging.totalCount)
        sink.write(UInt8(ascii: "}"))
    }

    /// `[{"url":…,"label":"&laquo; Previous","active":false},{"url":…,"label":"1","active":true},…,
    /// {"url":null,"label":"...","active":false},…,{"url":…,"label":"Next &raquo;","active":false}]`.
    private func writeLinks(to sink: inout some ByteSink) {
        sink.write("[{\"url\":")
        JSONText.writeLink(current > 1 ? url(current - 1) : nil, to: &sink)
        sink.write(",\"label\":\"&laquo; Previous\",\"active\":false}")
        for entry in window {
            switch entry {
            case .gap:
                sink.write(",{\"url\":null,\"label\":\"...\",\"active\":false}")
            case .page(let number):
                sink.write(",{\"url\":")
                JSONText.writeString(url(number), to: &sink)
                sink.write(",\"label\":\"")
                sink.writeDecimal(number)
                sink.write(number == current ? "\",\"active\":true}" : "\",\"active\":false}")
            }
        }
        sink.write(",{\"url\":")
        JSONText.writeLink(current < last ? url(current + 1) : nil, to: &sink)
        sink.write(",\"label\":\"Next &raquo;\",\"active\":false}]")
    }

    private func writeNumber(_ value: Int?, to sink: inout some ByteSink) {
        if let value { sink.writeDecimal(value) } else { sink.write("null") }
    }
}
