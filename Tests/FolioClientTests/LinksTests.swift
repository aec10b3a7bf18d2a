import Testing

@testable import FolioClient

/// The `Link` field as RFC 8288 writes it, not only as Folio does: the client also reads the
/// field other servers of a dialect send.
@Suite struct LinksTests {
    @Test(
        arguments: [
            // What Folio writes.
            (
                #"</o?offset=0>; rel="first", </o?offset=25>; rel="next""#,
                ["first": "/o?offset=0", "next": "/o?offset=25"]
            ),
            // Several relation types in one rel, any case.
            (#"</o?offset=75>; rel="next last""#, ["next": "/o?offset=75", "last": "/o?offset=75"]),
            (#"</a>; REL = "Next""#, ["next": "/a"]),
            ("</a>;rel=next,</b>;rel=prev", ["next": "/a", "prev": "/b"]),
            // A quoted parameter may hold `,`, `;`, `<` and escaped quotes.
            (#"</a>; title="x, <y>; \"z\""; rel=next, </b>; rel=prev"#, ["next": "/a", "prev": "/b"]),
            // Only a link's first rel counts; the first link of a relation type wins.
            ("</a>; rel=first; rel=next, </b>; rel=first", ["first": "/a"]),
            // What is no link is skipped up to the next comma.
            (#"junk; rel="next", </a>; rel=self"#, ["self": "/a"]),
            (#"</a>; type="text/html", </b>"#, [:]),
            ("</a; rel=next", [:]),
            // A link without its `>` is skipped, not read up to a later link's.
            ("</a>; rel=next, <b; rel=prev, </c>; rel=last", ["next": "/a", "last": "/c"]),
            ("<a, </b>; rel=next", ["next": "/b"]),
            (#"</a>; rel="next"#, ["next": "/a"]),
            ("", [:]),
        ] as [(String, [String: String])])
    func parsesTheLinkField(_ header: String, _ expected: [String: String]) {
        #expect(Links(header: header).byRel == expected)
    }
}
