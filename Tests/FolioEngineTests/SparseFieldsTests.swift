import Foundation
import Testing

@testable import FolioEngine

/// `?fields=` (docs/API.md, "Requests") against a reference that knows each member's bytes as written.
@Suite struct SparseFieldsTests {
    static func write(_ element: String, _ names: [String]) -> String {
        let list = ItemList(
            bytes: Array(element.utf8), starts: [0], ends: [UInt32(element.utf8.count)])
        let body = PageWriter.bareArray(view: ListView(list: list), items: 0..<1, fields: SparseFields(names))
        return String(decoding: body.dropFirst().dropLast(), as: UTF8.self)
    }

    @Test(arguments: [
        (#"{"id":1,"name":"a","price":2}"#, ["name", "id"], #"{"id":1,"name":"a"}"#),
        (#"{ "id" : 1 ,  "name":"a" }"#, ["id", "name"], #"{"id" : 1,"name":"a"}"#),
        (#"{"n\u0061me":"x","other":{"name":1}}"#, ["name"], #"{"n\u0061me":"x"}"#),
        (#"{"a":1,"a":2}"#, ["a"], #"{"a":1,"a":2}"#),
        (#"{"a":1}"#, ["b"], "{}"),
        (#"[1,2]"#, ["a"], "[1,2]"),
        (#""text""#, ["a"], #""text""#),
        ("null", ["a"], "null"),
        (#"{"x":[{"id":1}],"id":{"deep":[1,"}"]}}"#, ["id"], #"{"id":{"deep":[1,"}"]}}"#),
    ])
    func membersAreCopiedAsWritten(element: String, names: [String], expected: String) {
        #expect(Self.write(element, names) == expected)
    }

    @Test func randomObjectsMatchTheReference() throws {
        var random = RandomJSON(seed: 0x5EED_F1E1D5)
        let pool: [[UInt8]] = [
            #""id""#, #""name""#, #""n\u0061me""#, #""price""#, #""ß""#, #""\u00df""#, #""""#, #""a\"b""#,
        ].map { Array($0.utf8) }
        let names = ["id", "name", "price", "ß", "", "a\"b"]
        for _ in 0..<500 {
            var members: [[UInt8]] = []
            for _ in 0..<random.rng.below(7) {
                let key = random.rng.chance(70) ? random.rng.pick(pool) : random.string()
                members.append(
                    key + random.whitespace() + [UInt8(ascii: ":")] + random.whitespace() + random.value(depth: 2))
            }
            var object: [UInt8] = [UInt8(ascii: "{")] + random.whitespace()
            for (index, member) in members.enumerated() {
                if index > 0 { object += random.whitespace() + [UInt8(ascii: ",")] + random.whitespace() }
                object += member
            }
            object += random.whitespace() + [UInt8(ascii: "}")]
            let wanted = names.filter { _ in random.rng.chance(40) }
            // Reference: a member is kept when its key, decoded by Foundation, is a wanted name.
            let kept = try members.filter { member in
                let keyEnd = try #require(Self.keyEnd(member))
                let decoded = try JSONSerialization.jsonObject(
                    with: Data("[".utf8 + member[..<keyEnd] + "]".utf8), options: [.fragmentsAllowed])
                return wanted.contains(try #require((decoded as? [String])?.first))
            }
            let expected = "{" + kept.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",") + "}"
            let names = wanted.isEmpty ? ["absent"] : wanted
            #expect(Self.write(String(decoding: object, as: UTF8.self), names) == (wanted.isEmpty ? "{}" : expected))
        }
    }

    /// The index after a member's key (its closing quote).
    static func keyEnd(_ member: [UInt8]) -> Int? {
        var index = 1
        while index < member.count {
            if member[index] == UInt8(ascii: "\\") {
                index += 2
            } else if member[index] == UInt8(ascii: "\"") {
                return index + 1
            } else {
                index += 1
            }
        }
        return nil
    }
}
