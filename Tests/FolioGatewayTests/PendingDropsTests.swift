import Testing

@testable import FolioGateway

/// `PendingDrops`: which drops of this replica Redis has not taken yet, and which a replay sends.
@Suite("Pending drops")
struct PendingDropsTests {
    @Test func aDropIsPendingUntilRedisTookIt() {
        let drops = PendingDrops()
        let ticket = drops.keep("a", retention: .seconds(5))
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
        let first = drops.keep("a", retention: .seconds(5))
        let second = drops.keep("a", retention: .seconds(5))
        drops.sent("a", ticket: first)
        #expect(drops.isPending("a"))
        drops.failed("a", ticket: first)
        #expect(drops.failedDrops.isEmpty, "a late failure of the first does not mark the second")
        drops.failed("a", ticket: second)
        #expect(drops.failedDrops["a"] == PendingDrops.Drop(retention: .seconds(5), ticket: second, failed: true))
        drops.sent("a", ticket: second)
        #expect(!drops.isPending("a"))
    }

    @Test func aReplayedDropCarriesTheLongestRetentionAndStaysFailedUntilSent() {
        let drops = PendingDrops()
        let first = drops.keep("a", retention: .seconds(30))
        drops.failed("a", ticket: first)
        let second = drops.keep("a", retention: .seconds(5))
        #expect(drops.failedDrops["a"] == PendingDrops.Drop(retention: .seconds(30), ticket: second, failed: true))
        let replayed = drops.failedDrops["a"]!.ticket
        drops.sent("a", ticket: replayed)
        #expect(!drops.isPending("a"))
    }
}
