import Testing
import HummingbirdTesting
@testable import FolioGateway
@Test func gatewayBuilds() { #expect(String(describing: GatewayStub.self) == "GatewayStub") }
