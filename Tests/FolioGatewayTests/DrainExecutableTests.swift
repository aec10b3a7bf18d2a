import AsyncHTTPClient
import FolioEngine
import Foundation
import Testing

@testable import FolioGateway

/// The SIGTERM/SIGINT contract (docs/OPERATIONS.md, "Signals") against the built `folio` executable: exit
/// status and all.
@Suite("Drain on SIGTERM/SIGINT (executable)")
struct DrainExecutableTests {
    static func yaml(upstream: String, drainTimeout: String) -> String {
        gatewayYAML(
            upstream: upstream + "/objects", admin: true, server: "shutdownDelay: 0s\ndrainTimeout: \(drainTimeout)")
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func slowRequestFinishesThenExitZero(signal: Int32) async throws {
        let gate = Latch()
        let (body, elements) = objectsBody(7)
        try await withGatedUpstream(gate, .json(body)) { upstream in
            let folio = try FolioProcess(yaml: Self.yaml(upstream: upstream.baseURL, drainTimeout: "60s"))
            defer { folio.stop() }
            let (client, admin) = try await folio.ports()
            try await withHTTPClient { http in
                let slow = Task { try await http.answer("http://127.0.0.1:\(client)/objects?pageSize=5") }
                try await waitUntil("the request reached the upstream") { upstream.requestCount == 1 }

                folio.signal(signal)
                try await folio.message("draining")
                #expect(try await http.answer("http://127.0.0.1:\(admin)/readyz").status == 503)
                gate.open()

                let answer = try await slow.value
                #expect(answer.status == 200)
                #expect(try rawItems(answer.text) == Array(elements.prefix(5)))
                #expect(try await folio.exitStatus() == 0)
                try await folio.message("drained")
            }
        }
    }

    @Test func drainTimeoutCutsOffAndExitsOne() async throws {
        let gate = Latch()
        try await withGatedUpstream(gate, .json("[1]")) { upstream in
            let folio = try FolioProcess(yaml: Self.yaml(upstream: upstream.baseURL, drainTimeout: "200ms"))
            defer { folio.stop() }
            let (client, _) = try await folio.ports()
            try await withHTTPClient { http in
                let slow = Task { try await http.answer("http://127.0.0.1:\(client)/objects") }
                try await waitUntil("the request reached the upstream") { upstream.requestCount == 1 }

                folio.signal(SIGTERM)
                #expect(try await folio.exitStatus() == 1)
                try await folio.waitForLog("drain timeout") {
                    ($0["message"] as? String)?.hasPrefix("drain timeout") == true
                }
                // The client saw its request cut off, not answered.
                #expect((try? await slow.value)?.status != 200)
                gate.open()
            }
        }
    }

    @Test func anUnbindablePortExitsOneWithOneLine() async throws {
        try await withTestUpstream({ _ in .json("[1]") }) { taken in
            let yaml = listeningOnTakenPortYAML(taken)
            let folio = try FolioProcess(yaml: yaml)
            defer { folio.stop() }
            #expect(try await folio.exitStatus() == 1)
            try await waitUntil("the error line") { folio.standardError.hasSuffix("\n") }
            let errorLines = folio.standardError.split(separator: "\n")
            #expect(errorLines.count == 1)
            // Which listener, where, and why (docs/OPERATIONS.md, "Signals": one clear line).
            #expect(
                errorLines.first
                    == "folio: server.listen: cannot listen on 127.0.0.1:\(taken.port): Address already in use")
        }
    }
}
