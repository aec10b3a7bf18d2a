import FolioEngine
import Synchronization

/// The shapes of the routes of the configuration in force, by route name (set by each gateway,
/// reloads included).
final class RouteShapes: Sendable {
    private let shapes = Mutex<[String: RouteShape]>([:])

    func describe(_ shapes: [String: RouteShape]) {
        self.shapes.withLock { $0 = shapes }
    }

    func shape(of route: String) -> RouteShape? {
        shapes.withLock { $0[route] }
    }

    /// The shape of `key`'s route when `key` belongs to the configuration in force: a fill or
    /// load of a gateway a reload replaced, whose route's list settings changed, is not shared
    /// (it would write its list with the new config's sort, or build the new order on it).
    func shape(for key: CacheKey) -> RouteShape? {
        guard let shape = shape(of: key.route), shape.variant == key.variant else { return nil }
        return shape
    }

    /// Every route's shape.
    var all: [String: RouteShape] { shapes.withLock { $0 } }
}
