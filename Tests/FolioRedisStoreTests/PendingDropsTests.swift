import Testing

@testable import FolioRedisStore

/// `PendingDrops`: which drops of this replica Redis has not taken yet, and which a replay sends.
@Suite("Pending drops")
struct PendingDropsTests {
    @Test func aDropIsPendingUntilRedisTookIt() {
        let drops = PendingDrops()
        let ticket = drops.keep("a", retention: .seconds(5)).ticket
        #expect(drops.isPending("a"))
        #expect(!drops.isPending("b"))
        #expect(drops.failedDrops.isEmpty, "on its way, not failed")
        drops.sent("a", ticket: ticket)
        #expect(!drops.isPending("a"))
    }

    /// Two purges of one route close together: the first one's acknowledgement must not clear
    /// the second, still on its way (or refused later).
    @Test func anAcknowledgementClearsOnlyItsOwnDrop() {
        let drops = PendingDrops()
        let first = drops.keep("a", retention: .seconds(5)).ticket
        let second = drops.keep("a", retention: .seconds(5)).ticket
        drops.sent("a", ticket: first)
        #expect(drops.isPending("a"))
        drops.failed("a", ticket: first)
        #expect(drops.failedDrops.isEmpty, "a late failure of the first does not mark the second")
        drops.failed("a", ticket: second)
        #expect(drops.failedDrops["a"] == PendingDrops.Drop(retention: .seconds(5), ticket: second, failed: true))
        drops.sent("a", ticket: second)
        #expect(!drops.isPending("a"))
    }

    /// A purge after one that failed sends itself with the longer retention of the two; the
    /// probe does not send it too while it is on its way (two drops would refuse good fills).
    @Test func aNewDropCarriesTheLongestRetentionAndIsNotReplayedWhileOnItsWay() {
        let drops = PendingDrops()
        let first = drops.keep("a", retention: .seconds(30))
        drops.failed("a", ticket: first.ticket)
        #expect(drops.failedDrops["a"]?.retention == .seconds(30))
        let second = drops.keep("a", retention: .seconds(5))
        #expect(second.retention == .seconds(30))
        #expect(drops.failedDrops.isEmpty)
        drops.failed("a", ticket: second.ticket)
        #expect(
            drops.failedDrops["a"] == PendingDrops.Drop(retention: .seconds(30), ticket: second.ticket, failed: true))
        drops.sent("a", ticket: second.ticket)
        #expect(!drops.isPending("a"))
    }
}
