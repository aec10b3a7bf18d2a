import FolioConfiguration
import FolioEngine
import Hummingbird

/// What a list request asks for, read once from its target and headers: the slice and its
/// shape, the view it is cut from, and how its list is filled and cached.
struct ListPlan {
    let listRequest: ListRequest
    let selection: ListSelection
    let fill: FillPlan

    /// Throws the 400 a bad query deserves.
    init(
        _ request: Request, context: GatewayContext, route: CompiledRoute, match: RouteMatch,
        target: RequestTarget, requestID: String, trustedProxies: [CIDR]
    ) throws {
        let parameters = try QueryString.parse(target.query ?? "")
        listRequest = try ListRequest.interpret(
            parameters, options: route.paging, rangeHeader: request.headers[.range])
        selection = try ListSelection(listRequest, route: route)
        fill = FillPlan(
            request, route: route, match: match, parameters: parameters, peer: context.peer,
            trustedProxies: trustedProxies, requestID: requestID)
    }
}
