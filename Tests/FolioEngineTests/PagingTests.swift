import Testing

@testable import FolioEngine

@Suite struct PagingTests {
    @Test func specExample() {
        let paging = Paging(totalCount: 1337, offset: 50, pageSize: 25, pageBase: 0)
        #expect(paging.page == 2)
        #expect(paging.pageCount == 54)
        #expect(paging.first == 0)
        #expect(paging.previous == 25)
        #expect(paging.next == 75)
        #expect(paging.last == 1325)
        #expect(paging.hasMore)
        #expect(paging.items == 50..<75)
    }

    @Test func pageBaseShiftsOnlyThePageNumber() {
        let paging = Paging(totalCount: 1337, offset: 50, pageSize: 25, pageBase: 1)
        #expect(paging.page == 3)
        #expect(paging.next == 75)
        #expect(paging.last == 1325)
    }

    @Test func emptyList() {
        let paging = Paging(totalCount: 0, offset: 0, pageSize: 10, pageBase: 0)
        #expect(paging.first == 0)
        #expect(paging.last == 0)
        #expect(paging.previous == nil)
        #expect(paging.next == nil)
        #expect(paging.pageCount == 0)
        #expect(paging.page == 0)
        #expect(!paging.hasMore)
        #expect(paging.items.isEmpty)
        let beyond = Paging(totalCount: 0, offset: 30, pageSize: 10, pageBase: 0)
        #expect(beyond.previous == nil && beyond.next == nil && beyond.first == 0 && beyond.last == 0)
    }

    @Test func offsetBeyondTheEnd() {
        let paging = Paging(totalCount: 30, offset: 100, pageSize: 10, pageBase: 0)
        #expect(paging.items.isEmpty)
        #expect(paging.next == nil)
        #expect(paging.previous == 20)
        #expect(paging.last == 20)
        #expect(paging.page == 10)
        let atEnd = Paging(totalCount: 30, offset: 30, pageSize: 10, pageBase: 0)
        #expect(atEnd.items.isEmpty && atEnd.next == nil && atEnd.previous == 20)
    }

    @Test func unalignedOffsetStepsFromItself() {
        let paging = Paging(totalCount: 100, offset: 37, pageSize: 25, pageBase: 0)
        #expect(paging.page == nil)
        #expect(paging.next == 62)
        #expect(paging.previous == 12)
        #expect(paging.items == 37..<62)
        let nearStart = Paging(totalCount: 100, offset: 7, pageSize: 25, pageBase: 0)
        #expect(nearStart.previous == 0)
        let nearEnd = Paging(totalCount: 100, offset: 80, pageSize: 25, pageBase: 0)
        #expect(nearEnd.next == nil)
        #expect(nearEnd.items == 80..<100)
    }

    @Test func lastIsTheLargestMultipleBelowTotal() {
        #expect(Paging(totalCount: 100, offset: 0, pageSize: 25, pageBase: 0).last == 75)
        #expect(Paging(totalCount: 101, offset: 0, pageSize: 25, pageBase: 0).last == 100)
        #expect(Paging(totalCount: 1, offset: 0, pageSize: 25, pageBase: 0).last == 0)
        #expect(Paging(totalCount: 5, offset: 0, pageSize: 1, pageBase: 0).last == 4)
    }

    @Test func hugeOffsetsDoNotOverflow() {
        let limit = 9_007_199_254_740_992
        let paging = Paging(totalCount: 10, offset: limit, pageSize: limit + 1, pageBase: 1)
        #expect(paging.next == nil)
        #expect(paging.previous == 0)
        #expect(paging.items.isEmpty)
        #expect(paging.pageCount == 1)
    }

    /// Every combination in a small space against a reference built by enumerating the pages.
    @Test func agreesWithEnumeratedPages() {
        for total in 0...40 {
            for pageSize in 1...12 {
                let starts = Array(stride(from: 0, to: total, by: pageSize))
                for offset in 0...(total + 2 * pageSize) {
                    let paging = Paging(totalCount: total, offset: offset, pageSize: pageSize, pageBase: 1)
                    let context = "total \(total) pageSize \(pageSize) offset \(offset)"
                    #expect(paging.pageCount == starts.count, "\(context)")
                    #expect(paging.last == (starts.last ?? 0), "\(context)")
                    #expect(paging.first == 0, "\(context)")
                    let expectedItems = (0..<total).filter { $0 >= offset && $0 < offset + pageSize }
                    #expect(Array(paging.items) == expectedItems, "\(context)")
                    let nextStart = offset + pageSize
                    #expect(paging.next == (nextStart < total ? nextStart : nil), "\(context)")
                    let previous: Int? =
                        total == 0 ? nil : offset >= total ? starts.last : offset == 0 ? nil : max(0, offset - pageSize)
                    #expect(paging.previous == previous, "\(context)")
                    let page = offset % pageSize == 0 ? offset / pageSize + 1 : nil
                    #expect(paging.page == page, "\(context)")
                }
            }
        }
    }
}
