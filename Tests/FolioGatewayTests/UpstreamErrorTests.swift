import AsyncHTTPClient
import FolioEngine
import NIOCore
import Testing

@testable import FolioGateway

@Suite("UpstreamError")
struct UpstreamErrorTests {
    private func translated(_ error: any Error, _ phase: UpstreamError.Phase) -> UpstreamError? {
        UpstreamError.translating(error, phase: phase) as? UpstreamError
    }

    @Test func connectTimeoutsAre504() {
        #expect(translated(HTTPClientError.connectTimeout, .head)?.code == "upstream-connect-timeout")
        #expect(translated(ChannelError.connectTimeout(.seconds(1)), .head)?.code == "upstream-connect-timeout")
        #expect(translated(HTTPClientError.connectTimeout, .head)?.status == 504)
    }

    @Test func deadlinesAre504() {
        let error = translated(HTTPClientError.deadlineExceeded, .head)
        #expect(error?.code == "upstream-timeout")
        #expect(error?.status == 504)
    }

    @Test func connectionErrorsAreUnreachableOnlyBeforeTheHead() {
        let refused = IOError(errnoCode: 111, reason: "connect")
        #expect(translated(refused, .head)?.code == "upstream-unreachable")
        #expect(translated(refused, .body)?.code == "upstream-failed")
        #expect(translated(HTTPClientError.remoteConnectionClosed, .body)?.code == "upstream-failed")
    }

    @Test func folioErrorsPassUnchanged() {
        let error = FolioError.badUpstreamBody("x")
        #expect(UpstreamError.translating(error, phase: .body) as? FolioError == error)
    }

    @Test func convertsToAFolioErrorWithTheSameCodeAndStatus() {
        let reason = "http://secret-host:1234/ refused"
        let errors: [UpstreamError] = [
            .unreachable(reason), .connectTimeout(reason), .timeout(reason), .redirectRefused(reason),
            .tooManyRedirects(reason), .bodyTooLarge(reason), .failed(reason),
        ]
        #expect(Set(errors.map(\.code)).count == errors.count)
        for error in errors {
            #expect(error.folioError.code == error.code)
            #expect(error.folioError.status == error.status)
            #expect([502, 504].contains(error.status))
            // Internal addresses go to logs, never to clients.
            #expect(!error.folioError.detail.contains("secret-host"))
            #expect(error.description.contains(error.code))
            #expect(error.description.contains("secret-host"))
        }
    }
}
