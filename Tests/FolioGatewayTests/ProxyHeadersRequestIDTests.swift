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

    /// 32 lowercase hex digits, which also passes Folio's own acceptance rule downstream.
    private func isGenerated(_ id: String) -> Bool {
        id.utf8.count == 32 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase } && RequestID.accept(id) == id
    }
}
