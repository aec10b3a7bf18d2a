import FolioEngine
import Synchronization

/// What a list request's query asks for, read once: its parameters, their meaning and the view
/// they select. It depends on the query's text and the route alone. A class: a kept plan is
/// handed out with one retain, not one per string and array it holds.
final class QueryPlan: Sendable {
    let parameters: [QueryParameter]
    let listRequest: ListRequest
    let selection: ListSelection

    init(parameters: [QueryParameter], listRequest: ListRequest, selection: ListSelection) {
        self.parameters = parameters
        self.listRequest = listRequest
        self.selection = selection
    }
}

/// One route's query plans by the query's raw text: clients scrolling a list ask for the same
/// few targets again and again, and reading a query (splitting, percent-decoding, interpreting
/// every parameter, validating sort and filter fields) cost about 6% of a cached page's CPU.
///
/// Belongs to a `CompiledRoute`, so a reload starts empty. Bounded: at most `capacity` plans of
/// queries up to `longestQuery` bytes, all dropped when it is full (a client walking through
/// many pages refills it with what it asks now). Queries that fail are never kept: they are
/// read again and answer their 400 each time.
final class QueryPlanMemo: Sendable {
    static let capacity = 256
    static let longestQuery = 512

    private let plans = Mutex<[String: QueryPlan]>([:])

    /// The plan of `query`, made by `make` when it is not kept.
    func plan(
        for query: Substring, make: () throws(FolioError) -> QueryPlan
    ) throws(FolioError) -> QueryPlan {
        guard query.utf8.count <= Self.longestQuery else { return try make() }
        let text = String(query)
        if let plan = plans.withLock({ $0[text] }) { return plan }
        let plan = try make()
        plans.withLock { plans in
            if plans.count >= Self.capacity { plans.removeAll(keepingCapacity: true) }
            plans[text] = plan
        }
        return plan
    }

    /// How many plans are kept (tests).
    var count: Int { plans.withLock { $0.count } }
}
