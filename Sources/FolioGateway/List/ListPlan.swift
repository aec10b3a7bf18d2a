import FolioConfiguration
import FolioEngine
import HTTPTypes
import NIOCore

/// What a list request asks for, read once from its target and headers: the slice and its
/// shape, the view it is cut from, and how its list is filled and cached.
struct ListPlan {
    let query: QueryPlan
    let fill: FillPlan

    var listRequest: ListRequest { query.listRequest }
    var selection: ListSelection { query.selection }

    /// Throws the 400 a bad query deserves.
    init(
        _ request: HTTPRequest, peer: SocketAddress?, route: CompiledRoute, match: RouteMatch,
        target: RequestTarget, requestID: String, trustedProxies: [CIDR]
    ) throws {
        query = try Self.queryPlan(target.query ?? "", rangeHeader: request.headerFields[.range], route: route)
        fill = FillPlan(
            request, route: route, match: match, parameters: query.parameters, peer: peer,
            trustedProxies: trustedProxies, requestID: requestID)
    }

    /// The query's plan, kept by the route unless a `Range` header takes part in it.
    static func queryPlan(
        _ query: Substring, rangeHeader: String?, route: CompiledRoute
    ) throws(FolioError) -> QueryPlan {
        func make() throws(FolioError) -> QueryPlan {
            let parameters = try QueryString.parse(query)
            let listRequest = try ListRequest.interpret(parameters, options: route.paging, rangeHeader: rangeHeader)
            return QueryPlan(
                parameters: parameters, listRequest: listRequest,
                selection: try ListSelection(listRequest, route: route))
        }
        guard rangeHeader == nil else { return try make() }
        return try route.queryPlans.plan(for: query, make: make)
    }
}
