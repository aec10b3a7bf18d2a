import FolioConfiguration
import FolioEngine
import Testing

@testable import FolioGateway

/// `FillLedger` on its own (no store, no upstream): which fill a caller joins, what a fill
/// missed, and the count of fills not ended.
@Suite("Fill ledger")
struct FillLedgerTests {
    static let key = CacheKey(route: "objects", upstreamURL: "http://upstream.test/objects", variant: "v")

    static func routes(pageSize: Int? = nil) throws -> [Configuration.Route] {
        let yaml = gatewayYAML(
            upstream: "http://upstream.test/objects", route: pageSize.map { "pageSize: \($0)" } ?? "")
        return try ConfigurationLoader.parse(yaml: yaml, file: "ledger.yaml").routes
    }

    /// A fill that never ends on its own (the tests end it through the ledger).
    static func idle(_ stamp: FillLedger.Stamp) -> Task<FillResult, any Error> {
        Task { throw CancellationError() }
    }

    /// What moves a route's stamp between two fills of its key, and what the first then missed.
    enum Between: CaseIterable {
        case nothing, drop, dropOfAnotherRoute, reloadChangingTheRoute, reloadKeepingTheRoute, reloadRemovingIt
    }

    @Test(arguments: Between.allCases)
    func aFillIsJoinedUntilADropOrAChangeOfItsRoute(_ between: Between) throws {
        let ledger = FillLedger()
        let epochs = ledger.enter(try Self.routes())
        var first: FillLedger.Stamp?
        let (task, joined) = ledger.fill(Self.key, epoch: epochs["objects"]) { stamp in
            first = stamp
            return Self.idle(stamp)
        }
        #expect(!joined)
        var epoch = epochs["objects"]
        switch between {
        case .nothing: break
        case .drop: ledger.drop("objects")
        case .dropOfAnotherRoute: ledger.drop("others")
        case .reloadChangingTheRoute: epoch = ledger.enter(try Self.routes(pageSize: 5))["objects"]
        case .reloadKeepingTheRoute: epoch = ledger.enter(try Self.routes())["objects"]
        case .reloadRemovingIt: epoch = ledger.enter([])["objects"]
        }
        var started = 0
        let (second, joinedSecond) = ledger.fill(Self.key, epoch: epoch) { stamp in
            started += 1
            return Self.idle(stamp)
        }
        let stamp = try #require(first)
        let missed: FillLedger.Missed? =
            switch between {
            case .nothing, .dropOfAnotherRoute, .reloadKeepingTheRoute: nil
            case .drop: .drop
            case .reloadChangingTheRoute, .reloadRemovingIt: .removal
            }
        #expect(ledger.missed(Self.key, since: stamp) == missed)
        #expect(joinedSecond == (missed == nil))
        #expect(started == (missed == nil ? 0 : 1))
        #expect((second == task) == (missed == nil))
        #expect(ledger.running == started + 1)
        task.cancel()
        second.cancel()
    }

    /// A fill that ended is forgotten and uncounted; one a later fill replaced (after a drop)
    /// ends without forgetting the later one.
    @Test func anEndedFillIsForgottenUnlessALaterOneTookItsPlace() throws {
        let ledger = FillLedger()
        var stamps: [FillLedger.Stamp] = []
        let start = { (stamp: FillLedger.Stamp) -> Task<FillResult, any Error> in
            stamps.append(stamp)
            return Self.idle(stamp)
        }
        _ = ledger.fill(Self.key, epoch: nil, start: start)
        ledger.drop("objects")
        let (later, _) = ledger.fill(Self.key, epoch: nil, start: start)
        #expect(stamps.map(\.generation) == [0, 1])
        #expect(stamps[0].id != stamps[1].id)
        #expect(ledger.running == 2)

        ledger.ended(Self.key, stamps[0])
        #expect(ledger.running == 1)
        #expect(ledger.fill(Self.key, epoch: nil, start: start) == (later, true), "the later fill is still joined")
        ledger.ended(Self.key, stamps[1])
        #expect(ledger.running == 0)
        #expect(!ledger.fill(Self.key, epoch: nil, start: start).joined)
        #expect(stamps.count == 3)
    }

    /// A route's config epoch: the same for an unchanged config, moved by a change, a removal
    /// and a return.
    @Test func aRouteKeepsItsEpochWhileItsConfigIsUnchanged() throws {
        let ledger = FillLedger()
        #expect(ledger.enter(try Self.routes()) == ["objects": 0])
        #expect(ledger.enter(try Self.routes()) == ["objects": 0])
        #expect(ledger.enter(try Self.routes(pageSize: 5)) == ["objects": 1])
        #expect(ledger.enter([]).isEmpty)
        #expect(ledger.epoch(of: "objects") == 2)
        #expect(ledger.enter(try Self.routes(pageSize: 5)) == ["objects": 2], "back as it was when removed")
        #expect(ledger.generation(of: "objects") == 0)
        ledger.drop("objects")
        #expect(ledger.generation(of: "objects") == 1)
    }
}
