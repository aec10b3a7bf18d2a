import Foundation
import Testing

@testable import FolioEngine

/// The `since` answer's bytes (docs/API.md, "Changes between snapshots").
@Suite struct PatchWriterTests {
    func changes(_ old: [String], _ new: [String], fields: SparseFields? = nil) throws -> ViewChanges {
        let oldList = ChangeFixture.list(old)
        let newList = ChangeFixture.list(new)
        return try ViewChanges(
            from: ListView(list: oldList), ids: ChangeFixture.ids(oldList), to: ListView(list: newList),
            ids: ChangeFixture.ids(newList), form: .fields(fields))
    }

    @Test("the body: changes first, then the patch; values are the items' bytes as written")
    func exactBody() throws {
        let old = [#"{"id":1, "n":"a"}"#, #"{"id":2,"n":"b"}"#, #"{"id":3,"n":"c"}"#, #"{"id":4,"n":"d"}"#]
        let new = [
            #"{"id":1, "n":"a"}"#, #"{"id":3,"n":"c"}"#, #"{ "n" : "caf\u00e9", "id" : 5e0 }"#, #"{"id":2.0,"n":1.50}"#,
        ]
        let body = String(decoding: PatchWriter.body(try changes(old, new), from: "tok", to: "new"), as: UTF8.self)
        #expect(
            body
                == #"{"changes":{"from":"tok","to":"new","count":4,"previousCount":4},"patch":["#
                + #"{"op":"remove","path":"/3"},{"op":"move","from":"/2","path":"/1"},"#
                + #"{"op":"add","path":"/2","value":{ "n" : "caf\u00e9", "id" : 5e0 }},"#
                + #"{"op":"replace","path":"/3","value":{"id":2.0,"n":1.50}}]}"#)
    }

    @Test("no changes: an empty patch; tokens are JSON strings")
    func emptyPatch() throws {
        let items = [#"{"id":1}"#]
        let body = PatchWriter.body(try changes(items, items), from: #"a"b\c"#, to: "x")
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"changes":{"from":"a\"b\\c","to":"x","count":1,"previousCount":1},"patch":[]}"#)
        #expect(try JSONSerialization.jsonObject(with: Data(body)) is [String: Any])
    }

    @Test("with fields, values are cut like pages' items, and the buffer holds exactly the body")
    func sparse() throws {
        let old = [#"{"id":1,"n":"a","x":1}"#]
        let new = [#"{"x":2,"id":1,"n":"A"}"#, #"{"id":2,"n":"b"}"#, #"{"id":3}"#]
        let body = PatchWriter.body(try changes(old, new, fields: SparseFields(["n", "id"])), from: "t", to: "u")
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"changes":{"from":"t","to":"u","count":3,"previousCount":1},"patch":["#
                + #"{"op":"replace","path":"/0","value":{"id":1,"n":"A"}},"#
                + #"{"op":"add","path":"/1","value":{"id":2,"n":"b"}},{"op":"add","path":"/2","value":{"id":3}}]}"#)
    }
}
