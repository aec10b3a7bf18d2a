import FolioConfiguration
import FolioEngine
import Testing

@testable import FolioGateway

/// A route's kept query plans: read once per query text, never for a failed query, bounded.
@Suite struct QueryPlanMemoTests {
    let route: CompiledRoute

    init() throws {
        let configuration = try ConfigurationLoader.parse(
            yaml: gatewayYAML(upstream: "http://upstream.test/objects", route: "sortable: [name]"), file: "test.yaml")
        route = CompiledRoute(
            configuration.routes[0], limits: configuration.limits, metrics: GatewayMetrics().route("objects"))
    }

    /// The plan through the memo, counting how often it is read.
    func plan(_ query: Substring, reads: inout Int) throws(FolioError) -> QueryPlan {
        try route.queryPlans.plan(for: query) { () throws(FolioError) -> QueryPlan in
            reads += 1
            let parameters = try QueryString.parse(query)
            let listRequest = try ListRequest.interpret(parameters, options: route.paging, rangeHeader: nil)
            return QueryPlan(
                parameters: parameters, listRequest: listRequest,
                selection: try ListSelection(listRequest, route: route))
        }
    }

    @Test func aQueryIsReadOnce() throws {
        var reads = 0
        let first = try plan("page=2&pageSize=25&sort=-name", reads: &reads)
        let again = try plan("page=2&pageSize=25&sort=-name", reads: &reads)
        #expect(reads == 1)
        #expect(again.listRequest == first.listRequest)
        #expect(again.parameters == first.parameters)
        #expect(first.listRequest.offset == 50 && first.listRequest.pageSize == 25)
        let other = try plan("page=3&pageSize=25&sort=-name", reads: &reads)
        #expect(reads == 2)
        #expect(other.listRequest.offset == 75)
        #expect(route.queryPlans.count == 2)
    }

    @Test func aFailedQueryIsReadEveryTime() {
        var reads = 0
        for _ in 0..<2 {
            #expect(throws: FolioError.self) { try plan("pageSize=abc", reads: &reads) }
        }
        #expect(reads == 2)
        #expect(route.queryPlans.count == 0)
    }

    @Test func aFullMemoStartsAgain() throws {
        var reads = 0
        for page in 1...QueryPlanMemo.capacity {
            _ = try plan(Substring("page=\(page)"), reads: &reads)
        }
        #expect(route.queryPlans.count == QueryPlanMemo.capacity)
        _ = try plan("page=1", reads: &reads)
        #expect(reads == QueryPlanMemo.capacity)
        _ = try plan("page=0000", reads: &reads)
        #expect(reads == QueryPlanMemo.capacity + 1)
        #expect(route.queryPlans.count == 1)
    }

    @Test func longQueriesAreNotKept() throws {
        var reads = 0
        let long = Substring("page=2&x=" + String(repeating: "a", count: QueryPlanMemo.longestQuery))
        _ = try plan(long, reads: &reads)
        _ = try plan(long, reads: &reads)
        #expect(reads == 2)
        #expect(route.queryPlans.count == 0)
    }

    /// A `Range` header takes part in the plan, so such requests are read without the memo.
    @Test func rangeRequestsAreReadWithoutTheMemo() throws {
        let ranged = try ListPlan.queryPlan("pageSize=10", rangeHeader: "items=20-29", route: route)
        #expect(ranged.listRequest.range?.first == 20)
        #expect(route.queryPlans.count == 0)
        let plain = try ListPlan.queryPlan("pageSize=10", rangeHeader: nil, route: route)
        #expect(plain.listRequest.range == nil)
        #expect(route.queryPlans.count == 1)
    }
}
