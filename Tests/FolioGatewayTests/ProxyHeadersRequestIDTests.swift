import Testing

@testable import FolioGateway

@Suite("RequestID")
struct ProxyHeadersRequestIDTests {
    @Test(arguments: ["a", "abc-123_x.Y", String(repeating: "z", count: 128), "0.0.0", "A-B_C.d"])
    func acceptsWellFormedIDs(value: String) {
        #expect(RequestID.accept(value) == value)
    }

    @Test(arguments: ["", String(repeating: "z", count: 129), "has space", "new\nline", "é", "a/b", "a,b", "a\u{0}"])
    func replacesOtherIDs(value: String) {
        let id = RequestID.accept(value)
        #expect(id != value)
        #expect(isGenerated(id))
    }

    @Test func generatesWhenAbsent() {
        let first = RequestID.accept(nil)
        let second = RequestID.accept(nil)
        #expect(isGenerated(first))
        #expect(isGenerated(second))
        #expect(first != second)
    }

    /// Generated IDs never repeat, and their halves are never the same 16 digits (they were for
    /// the second request of every process: both halves mixed from one counter value).
    @Test func generatedIDsAreDistinctWithDistinctHalves() {
        var seen = Set<String>()
        for count in UInt64(0)..<4096 {
            let id = RequestID.generate(count)
            #expect(isGenerated(id))
            #expect(id.prefix(16) != id.suffix(16), "count \(count): \(id)")
            seen.insert(String(id.prefix(16)))
            seen.insert(String(id.suffix(16)))
        }
        #expect(seen.count == 2 * 4096)
    }

    /// 32 lowercase hex digits, which also passes Folio's own acceptance rule downstream.
    private func isGenerated(_ id: String) -> Bool {
        id.utf8.count == 32 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase } && RequestID.accept(id) == id
    }
}
