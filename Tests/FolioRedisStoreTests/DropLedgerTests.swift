import Testing

@testable import FolioRedisStore

/// `DropLedger`: what moves a route's drop generation, when a route may be loaded from Redis,
/// and which routes a lost events subscription may have cost a drop.
@Suite("Drop ledger")
struct DropLedgerTests {
    /// What happens to route `a` (route `b` is left alone).
    enum Event: CaseIterable {
        case made, heard, removed, subscriptionLostAndBack, subscriptionBackWithoutLoss
    }

    @Test(arguments: Event.allCases)
    func whatMovesARoutesGeneration(_ event: Event) {
        let ledger = DropLedger()
        let moves: Bool
        switch event {
        case .made:
            _ = ledger.made("a", retention: .seconds(5))
            moves = true
        case .heard:
            ledger.heard("a")
            moves = true
        case .removed:
            ledger.removed("a")
            moves = true
        case .subscriptionLostAndBack:
            ledger.subscriptionFailed()
            #expect(ledger.subscriptionBack(routes: ["a"]))
            moves = true
        case .subscriptionBackWithoutLoss:
            #expect(!ledger.subscriptionBack(routes: ["a"]))
            moves = false
        }
        #expect(ledger.generation(of: "a") == (moves ? 1 : 0))
        #expect(ledger.generation(of: "b") == 0)
        // Only this replica's own drop holds the route off Redis, until Redis takes it.
        #expect((ledger.loadableGeneration(of: "a") == nil) == (event == .made))
        #expect(ledger.loadableGeneration(of: "b") == 0)
    }

    @Test func aDropMadeIsLoadableAgainOnceRedisTookIt() throws {
        let ledger = DropLedger()
        let drop = ledger.made("a", retention: .seconds(5))
        #expect(ledger.loadableGeneration(of: "a") == nil)
        ledger.pending.sent("a", ticket: drop.ticket)
        #expect(ledger.loadableGeneration(of: "a") == 1)
    }

    /// A route's drop generation in Redis now, against the one read when the subscription last
    /// came up (`nil`: that read or this one failed).
    struct CatchUpRow: Sendable, CustomTestStringConvertible {
        var before: Int64?
        var now: Int64?
        /// A drop of the route was heard or made in between.
        var heardBetween = false
        var missed: Bool

        var testDescription: String { "\(before.map(String.init) ?? "unread") → \(now.map(String.init) ?? "unread")" }
    }

    static let catchUpRows: [CatchUpRow] = [
        CatchUpRow(before: 3, now: 3, missed: false),
        CatchUpRow(before: 3, now: 4, missed: true),
        CatchUpRow(before: nil, now: 3, missed: true),
        CatchUpRow(before: 3, now: nil, missed: true),
        CatchUpRow(before: 3, now: 3, heardBetween: true, missed: true),
    ]

    /// After a lost subscription, a route is taken as dropped unless Redis's generation vouches
    /// for it; without a loss, nothing is, and what was read vouches from now on.
    @Test(arguments: catchUpRows)
    func aLostSubscriptionMissedTheRoutesItCannotVouchFor(_ row: CatchUpRow) {
        let ledger = DropLedger()
        _ = ledger.catchUp(shared: row.before.map { ["a": $0, "b": 1] }, routes: ["a", "b"], lost: false)
        if row.heardBetween { ledger.heard("a") }
        let generation = ledger.generation(of: "a")
        let missed = ledger.catchUp(shared: row.now.map { ["a": $0, "b": 1] }, routes: ["a", "b"], lost: true)
        let bMissed = row.before == nil || row.now == nil
        #expect(missed == (row.missed ? ["a"] : []) + (bMissed ? ["b"] : []))
        #expect(ledger.generation(of: "a") == generation + (row.missed ? 1 : 0))
        #expect(ledger.generation(of: "b") == (bMissed ? 1 : 0))
    }

    @Test func withoutALossNothingIsMissedAndTheNewReadVouches() {
        let ledger = DropLedger()
        #expect(ledger.catchUp(shared: ["a": 1], routes: ["a"], lost: false).isEmpty)
        #expect(ledger.catchUp(shared: ["a": 2], routes: ["a"], lost: false).isEmpty)
        #expect(ledger.generation(of: "a") == 0)
        #expect(ledger.catchUp(shared: ["a": 2], routes: ["a"], lost: true).isEmpty, "2 vouches now")
    }
}
