import Testing
@testable import FolioEngine
@Test func engineBuilds() { #expect(ItemList.empty.count == 0) }
