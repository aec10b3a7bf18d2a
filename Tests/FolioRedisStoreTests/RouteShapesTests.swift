import FolioEngine
import Synchronization
import Testing

@testable import FolioRedisStore

/// `RouteShapes` and `RouteShape`: which keys belong to the config in force, and a stored list
/// as a replica serves it.
@Suite("Route shapes")
struct RouteShapesTests {
    static func shape(_ variant: String) -> RouteShape {
        RouteShape(variant: variant, sectionKey: nil, defaultSort: .upstream, retention: .seconds(30))
    }

    /// A key is shared only under the variant of its route's shape in force.
    @Test(arguments: [("objects", "v1", true), ("objects", "v0", false), ("others", "v1", false)])
    func aKeyBelongsToTheConfigInForceByItsVariant(route: String, variant: String, shared: Bool) {
        let shapes = RouteShapes()
        shapes.describe(["objects": Self.shape("v1")])
        let key = CacheKey(route: route, upstreamURL: "http://upstream.test/\(route)", variant: variant)
        #expect((shapes.shape(for: key) != nil) == shared)
        shapes.describe([:])
        #expect(shapes.shape(for: key) == nil, "a reload removed the route")
        #expect(shapes.all.isEmpty)
    }

    @Test func aStoredListIsServedWithItsInstantsAndTheRoutesPreparation() throws {
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        try indexer.append(Array(#"[{"id":2},{"id":1}]"#.utf8))
        _ = try indexer.endBody()
        let (list, token) = try indexer.finish()
        let stored = StoredList(
            list: list, token: token, sort: [], storedAtMilliseconds: 0, lifetimeMilliseconds: 5000, etag: "\"e\"",
            mustRevalidate: true, initialAgeMilliseconds: 1000)
        let prepared = Mutex(0)
        var shape = Self.shape("v1")
        shape.prepare = { _ in prepared.withLock { $0 += 1 } }
        let storedAt = ContinuousClock.now
        let snapshot = shape.snapshot(stored, storedAt: storedAt)
        #expect(snapshot.token == token)
        #expect(snapshot.storedAt == storedAt)
        #expect(snapshot.freshUntil == storedAt + .seconds(5))
        #expect(snapshot.etag == "\"e\"")
        #expect(snapshot.mustRevalidate)
        #expect(snapshot.initialAge == .seconds(1))
        #expect(prepared.withLock { $0 } == 1)
    }
}
