import Testing

@testable import FolioEngine

#if canImport(Glibc)
    import Glibc
#endif

/// A finished list holds no memory beyond its bytes and ranges: a large store that grew by
/// doubling (a body of unknown length) gives its unused capacity's pages back in place, where a
/// copy to the exact size would hold a second body at the fill's peak.
@Suite struct StoreTrimTests {
    #if os(Linux)
        /// How many of the whole pages in `range` of `array`'s capacity are resident.
        static func residentPages(_ array: [UInt8], in range: Range<Int>) -> (resident: Int, pages: Int) {
            array.withUnsafeBufferPointer { buffer in
                let base = UInt(bitPattern: buffer.baseAddress!)
                let start = (base + UInt(range.lowerBound) + 4095) & ~4095
                let end = (base + UInt(range.upperBound)) & ~4095
                guard end > start else { return (0, 0) }
                var vector = [UInt8](repeating: 0, count: Int(end - start) / 4096)
                let result = mincore(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), &vector)
                precondition(result == 0, "mincore failed")
                return (vector.filter { $0 & 1 == 1 }.count, vector.count)
            }
        }

        @Test func releasingUnusedCapacityKeepsTheElements() {
            var array = [UInt8](repeating: 7, count: 6 << 20)
            array.removeLast(4 << 20)  // keeps the capacity, whose pages were all touched
            let capacity = array.capacity
            #expect(Self.residentPages(array, in: array.count..<capacity).resident > 500)
            HugePages.releaseUnused(array)
            #expect(array.capacity == capacity, "released in place")
            #expect(Self.residentPages(array, in: array.count..<capacity).resident == 0)
            #expect(array.allSatisfy { $0 == 7 })
            #expect(Self.residentPages(array, in: 0..<array.count).resident > 500)
        }

        /// Fed in chunks without a declared length, a 3 MB store doubles past the body; the
        /// finished list keeps the capacity but no page of it beyond the body, and counts only
        /// the body's bytes.
        @Test func aLargeListIsTrimmedInPlace() throws {
            var gen = RandomJSON(seed: 0x7B1A)
            let elements = (0..<3000).map { _ in Array(("\"" + String(repeating: "x", count: 1000) + "\"").utf8) }
            let document = gen.body(gen.array(of: elements))
            var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
            for start in stride(from: 0, to: document.count, by: 64 << 10) {
                try indexer.append(Array(document[start..<min(document.count, start + (64 << 10))]))
            }
            let (list, _) = try indexer.finish()
            #expect(list.bytes == document)
            #expect(list.bytes.capacity - list.bytes.count > 1 << 20, "no copy to the exact size")
            #expect(Self.residentPages(list.bytes, in: list.bytes.count..<list.bytes.capacity).resident == 0)
            #expect(list.retainedBytes == document.count + list.starts.capacity * 4 + list.ends.capacity * 4)
        }
    #endif
}
