import FolioEngine
import FolioTestSupport
import Testing

@testable import FolioRedisStore

/// Loads from Redis in flight counted against the local layer's bound (`LoadBudget`): before,
/// their buffers were outside it, and RSS reached several times `localMaxBytes` on cold starts.
@Suite("Loads in flight within the local bound")
struct LoadBudgetTests {
    @Test func loadsAreCountedInTheLocalLayerAndWaitForRoomBesideTheOthers() async throws {
        let local = MemorySnapshotStore(maxBytes: 100)
        let budget = LoadBudget(local: local)
        await budget.admit(60)
        #expect(local.statistics().bytes == 60, "a load in flight counts against the bound")
        let second = Task { await budget.admit(60) }
        #expect(await eventually { budget.counts.waiting == 1 }, "60 more do not fit beside the first")
        #expect(local.statistics().bytes == 60)
        let small = Task { await budget.admit(10) }
        #expect(await eventually { budget.counts.waiting == 2 }, "a later load does not overtake a waiting one")
        budget.release(60)
        await second.value
        await small.value
        #expect(budget.counts == (70, 0))
        #expect(local.statistics().bytes == 70)
        budget.release(60)
        budget.release(10)
        #expect(local.statistics().bytes == 0)
    }

    /// A list too large for the bound is loaded alone, not never.
    @Test func aLoadLargerThanTheBoundRunsAlone() async throws {
        let budget = LoadBudget(local: MemorySnapshotStore(maxBytes: 100))
        await budget.admit(500)
        let next = Task { await budget.admit(1) }
        #expect(await eventually { budget.counts.waiting == 1 })
        budget.release(500)
        await next.value
        #expect(budget.counts == (1, 0))
    }

    /// A ticket gives back what it was admitted for, once, however often it is released.
    @Test func aTicketReleasesOnce() async throws {
        let local = MemorySnapshotStore(maxBytes: 1000)
        let budget = LoadBudget(local: local)
        let ticket = LoadTicket(budget)
        await ticket.admit(listBytes: 10)
        #expect(local.statistics().bytes == 10 * LoadBudget.bytesPerListByte)
        ticket.release()
        ticket.release()
        #expect(budget.counts == (0, 0) && local.statistics().bytes == 0)
    }
}
