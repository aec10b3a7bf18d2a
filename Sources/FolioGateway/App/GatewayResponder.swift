import Hummingbird

/// The one responder of the client listener: every path goes through Folio's own route
/// matcher (Hummingbird's router cannot express SPEC 2.1's matching rules).
public struct GatewayResponder: HTTPResponder {
    public typealias Context = GatewayContext
    let gateway: Gateway

    public func respond(to request: Request, context: GatewayContext) async throws -> Response {
        await gateway.respond(to: request, context: context)
    }
}
