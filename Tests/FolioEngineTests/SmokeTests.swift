import Testing
@testable import FolioEngine
@Test func engineBuilds() { #expect(EngineVersion.name == "folio") }
