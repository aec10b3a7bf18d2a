import Testing

@testable import FolioEngine

/// The kept answers' least-recently-used bound, against a plain list as the reference.
@Suite struct RenderedPagesTests {
    @Test func evictsLeastRecentlyUsedFirstAndReusesSlots() {
        var random = SplitMix64(seed: 19)
        let pages = RenderedPages(limit: 10 * (100 + 2 + 64))
        var reference: [String] = []  // least recently used first
        for _ in 0..<5_000 {
            let key = String(Int(random.next() % 40) + 10)  // two characters each
            if random.next() % 3 == 0 {
                let found = pages.page(key)
                #expect((found != nil) == reference.contains(key))
                if found != nil {
                    reference.removeAll { $0 == key }
                    reference.append(key)
                }
            } else if !reference.contains(key) {
                #expect(pages.store([UInt8](repeating: UInt8(key)!, count: 100), for: key))
                reference.append(key)
                if reference.count > 10 { reference.removeFirst() }
            }
            #expect(pages.count == reference.count)
            #expect(pages.retainedBytes == reference.count * (100 + 2 + 64))
        }
        for key in reference { #expect(pages.page(key) == [UInt8](repeating: UInt8(key)!, count: 100)) }
    }

    @Test func answersOfAnotherTypeAreNotReturned() {
        let pages = RenderedPages(limit: 1 << 20)
        pages.store([UInt8]([1, 2, 3]), for: "a")
        #expect(pages.answer("a", as: Marker.self) == nil)
        #expect(pages.page("a") == [1, 2, 3])
    }

    struct Marker: RenderedAnswer {
        var byteCount: Int { 1 }
    }
}
