import FolioEngine
import Foundation
import Synchronization

/// What the admin page shows of one route since the process started (docs/API.md, "Admin
/// state"): answers by how the cache gave them, 5xx answers, the last fill, fills and watch
/// streams open now. One per route name for the process (`RouteActivityBook`), so a reload
/// keeps counting; counters are atomics, so a request pays no lock.
final class RouteActivity: Sendable {
    /// One upstream fill (or direct fetch) of the route, as it ended.
    struct Fill: Sendable, Equatable {
        /// Wall-clock end of the fill.
        var at: Date
        var duration: Duration
        /// The list's bytes and items; nil when no list came (an error status, a failure).
        var bytes: Int?
        var items: Int?
        /// `stored`, `revalidated`, `uncacheable`, `unstored`, `shared`, `upstream-STATUS` (the
        /// upstream's error status, passed through) or `failed-STATUS` (Folio's answer).
        var outcome: String
    }

    /// Answers from the cached list: `hit` and `revalidated` lookups.
    let hits = Atomic<Int>(0)
    /// Answers from a new fetch: `miss`, `refetched`, `collapsed`, `uncacheable`, `bypass`.
    let misses = Atomic<Int>(0)
    /// Stale or superseded snapshots served: `stale`.
    let stale = Atomic<Int>(0)
    /// Answers with a 5xx status.
    let errors = Atomic<Int>(0)
    let fillsInFlight = Atomic<Int>(0)
    private let openWatchers = Atomic<Int>(0)
    private let last = Mutex<Fill?>(nil)

    func lookup(_ result: CacheResult) {
        switch result {
        case .hit, .revalidated: hits.add(1, ordering: .relaxed)
        case .stale: stale.add(1, ordering: .relaxed)
        case .miss, .refetched, .collapsed, .uncacheable, .bypass: misses.add(1, ordering: .relaxed)
        }
    }

    func answered(status: Int) {
        if status >= 500 { errors.add(1, ordering: .relaxed) }
    }

    /// Runs one fill of the route, counted in flight while it runs and kept as the last fill.
    func filling<T>(
        _ describe: (Result<T, any Error>) -> (bytes: Int?, items: Int?, outcome: String),
        _ body: () async throws -> T
    ) async throws -> T {
        let start = ContinuousClock.now
        fillsInFlight.add(1, ordering: .relaxed)
        defer { fillsInFlight.subtract(1, ordering: .relaxed) }
        let result: Result<T, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        let (bytes, items, outcome) = describe(result)
        let fill = Fill(at: Date(), duration: start.duration(to: .now), bytes: bytes, items: items, outcome: outcome)
        last.withLock { $0 = fill }
        return try result.get()
    }

    var lastFill: Fill? { last.withLock { $0 } }

    // MARK: Watch streams

    /// Watch streams of this route open now (docs/API.md, "Admin state", `watchers`): the
    /// `WatchHub` calls `watchOpened()` when a stream starts and `watchClosed()` once when it
    /// ends (`GatewayMetrics.watchStream`).
    func watchOpened() { openWatchers.add(1, ordering: .relaxed) }

    func watchClosed() { openWatchers.subtract(1, ordering: .relaxed) }

    /// Watch streams open now.
    var watchers: Int { openWatchers.load(ordering: .relaxed) }
}

/// The `RouteActivity` of every route name the process has served, kept across reloads.
final class RouteActivityBook: Sendable {
    private let routes = Mutex<[String: RouteActivity]>([:])

    func activity(_ route: String) -> RouteActivity {
        routes.withLock { routes in
            if let known = routes[route] { return known }
            let made = RouteActivity()
            routes[route] = made
            return made
        }
    }
}

extension FillResult {
    /// A fill as `RouteActivity` keeps it: the list's size and how it ended.
    static func activity(_ result: Result<FillResult, any Error>) -> (bytes: Int?, items: Int?, outcome: String) {
        switch result {
        case .success(let fill):
            switch fill {
            case .stored(let snapshot): (snapshot.list.bytes.count, snapshot.list.count, "stored")
            case .revalidated(let snapshot, _): (snapshot.list.bytes.count, snapshot.list.count, "revalidated")
            case .uncacheable(let snapshot): (snapshot.list.bytes.count, snapshot.list.count, "uncacheable")
            case .unstored(let snapshot): (snapshot.list.bytes.count, snapshot.list.count, "unstored")
            case .shared(let snapshot, _): (snapshot.list.bytes.count, snapshot.list.count, "shared")
            case .upstream(let answer): (nil, nil, "upstream-\(answer.status)")
            }
        case .failure(let error): (nil, nil, "failed-\(FolioError.mapping(error).status)")
        }
    }
}
