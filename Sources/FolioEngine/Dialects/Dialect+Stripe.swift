extension Dialect {
    /// Stripe-style cursor lists (SDK-style clients): `limit`; `starting_after=ID` (the items after that item) or
    /// `ending_before=ID` (the `limit` items right before it), ids read at `idField` in the snapshot's order (the
    /// route's, or Folio's `sort`). Body `{"object":"list","url":PATH,"has_more":…,"data":[…]}`; links name the
    /// next page by the id of the item before it (`starting_after`).
    ///
    /// Renames in `params` apply: `pageSize` renames `limit`.
    public static let stripe = Dialect(
        name: "stripe",
        pagingModes: { names, _ in
            [
                PagingMode(
                    size: PagingMode.name("limit", renamed: names.pageSize, folioDefault: "pageSize"),
                    position: .cursor(after: "starting_after", before: "ending_before"))
            ]
        },
        sort: .folio, filter: nil, comparisonSuffixes: [],
        contentType: "application/json", contentRangeOnPages: false,
        page: { page in [UInt8](exactly: StripeList(page: page, withItems: true)) },
        metadata: { page in [UInt8](exactly: StripeList(page: page, withItems: false)) },
        needsIDs: true)
}

/// `{"object":"list","url":PATH,"has_more":BOOL,"data":[…]}`; without `data` for `metadataOnly`. `has_more` looks
/// the way the request pages: after the page, or before it for `ending_before`.
private struct StripeList: ByteWritable {
    let url: String
    let hasMore: Bool
    let items: PageItems?

    init(page: DialectPage, withItems: Bool) {
        let path = page.links.path
        // Stripe's `url` is the list's path, without `publicBaseURL`'s origin.
        if let scheme = path.range(of: "://"), let slash = path[scheme.upperBound...].firstIndex(of: "/") {
            url = String(path[slash...])
        } else {
            url = path
        }
        let positions: Range<Int>
        if let end = page.endingBefore {
            positions = max(0, end - page.paging.pageSize)..<end
            hasMore = positions.lowerBound > 0
        } else {
            positions = page.paging.items
            hasMore = page.paging.next != nil
        }
        items = withItems ? PageItems(view: page.view, positions: positions, fields: page.fields) : nil
    }

    func write(to sink: inout some ByteSink) {
        sink.write("{\"object\":\"list\",\"url\":")
        JSONText.writeString(url, to: &sink)
        sink.write(hasMore ? ",\"has_more\":true" : ",\"has_more\":false")
        if let items {
            sink.write(",\"data\":")
            items.write(to: &sink)
        }
        sink.write(UInt8(ascii: "}"))
    }
}
