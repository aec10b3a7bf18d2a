import FolioEngine
import Testing

/// What the memory store lists for the admin page (`inventory`): current and retained snapshots
/// with their counted bytes, retained ones only while their retention lasts.
@Suite("Memory snapshot store: inventory")
struct MemorySnapshotStoreInventoryTests {
    typealias Store = MemorySnapshotStoreTests

    @Test func listsCurrentAndRetainedSnapshotsWhileTheyAreRetained() throws {
        let clock = Store.Clock()
        let store = MemorySnapshotStore(maxBytes: 1 << 30, now: clock.now)
        let v1 = try Store.snapshot("v1")
        let v2 = try Store.snapshot("v2")
        let other = try Store.snapshot("o")
        #expect(store.inventory().isEmpty)
        #expect(store.install(v1, for: Store.key(), retention: .seconds(10)))
        #expect(store.install(other, for: Store.key("s", "/b"), retention: .seconds(10)))
        clock.advance(.seconds(2))
        #expect(store.install(v2, for: Store.key(), retention: .seconds(10)))

        let held = store.inventory()
        #expect(held.count == 3)
        let current = held.filter { $0.supersededAt == nil }
        #expect(Set(current.map(\.snapshot.token)) == [v2.token, other.token])
        let retained = try #require(held.first { $0.supersededAt != nil })
        #expect(retained.snapshot === v1)
        #expect(retained.key == Store.key())
        #expect(retained.supersededAt == clock.now())
        #expect(held.map(\.bytes).reduce(0, +) == store.statistics().bytes)

        clock.advance(.seconds(11))
        #expect(store.inventory().map(\.snapshot.token).sorted() == [v2.token, other.token].sorted())
    }
}
