import AsyncHTTPClient
import FolioConfiguration
import FolioEngine
import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import FolioGateway

/// The shutdown order of docs/OPERATIONS.md, "Signals", in process: `/readyz` fails at once, the client
/// listener closes after `shutdownDelay`, requests in flight get `drainTimeout`, the admin listener
/// answers throughout.
@Suite("Drain on SIGTERM/SIGINT (in process)")
struct DrainTests {
    @Test func inFlightRequestFinishesAndTheListenerClosesWhileAdminAnswers() async throws {
        let gate = Latch()
        let (body, elements) = objectsBody(4)
        try await withGatedUpstream(gate, .json(body)) { upstream in
            let yaml = gatewayYAML(
                upstream: upstream.baseURL + "/objects", admin: true, server: "shutdownDelay: 0s\ndrainTimeout: 60s")
            let (_, termination) = try await withFolio(yaml) { folio in
                let slow = Task { try await folio.get("\(folio.client)/objects?pageSize=10") }
                try await waitUntil("the request reached the upstream") { upstream.requestCount == 1 }
                folio.service.drain()
                #expect(try await folio.get("\(folio.admin)/readyz").status == 503)
                try await waitUntil("the client listener stops accepting") {
                    await !canConnect(port: folio.clientPort)
                }
                // The listener is closed, the request is still in flight, the admin still answers.
                #expect(try await folio.get("\(folio.admin)/readyz").status == 503)
                #expect(try await folio.get("\(folio.admin)/livez").status == 200)
                gate.open()
                let answer = try await slow.value
                #expect(answer.status == 200)
                #expect(try rawItems(answer.text) == elements)
            }
            #expect(termination == .drained)
            #expect(termination.exitCode == 0)
        }
    }

    /// Answers still being sent when the drain starts (a slow client has not read them yet)
    /// arrive whole, one rendered by the responder and one kept and written by the front door,
    /// and the drain ends clean: closing a connection waits for the bytes written before.
    @Test func answersBeingSentWhenTheDrainStartsArriveWhole() async throws {
        try await LargeList.withUpstream { upstream in
            let yaml = LargeList.yaml(upstream, admin: true, server: "drainTimeout: 60s")
            let (connections, termination) = try await withFolio(yaml) { folio in
                var connections: [RawConnection] = []
                for _ in 0..<2 {  // a miss, then a hit
                    let connection = try await LargeList.slowAnswer(port: folio.clientPort)
                    connections.append(connection)
                }
                folio.service.drain()
                try await Task.sleep(for: .milliseconds(300))
                for connection in connections { try await connection.readSlowly(upTo: .max, pause: .milliseconds(2)) }
                return connections
            }
            #expect(termination == .drained)
            for connection in connections {
                #expect(connection.isClosed)
                let progress = try #require(connection.answerProgress)
                #expect(progress.contentLength > 8_000_000)
                #expect(progress.bodyBytes == progress.contentLength)
            }
        }
    }

    /// An answer a client does not read within `drainTimeout` is cut off, and the drain says so
    /// (exit status 1), rather than dropping the unsent bytes and reporting a clean drain.
    @Test func anAnswerNotTakenWithinTheDrainTimeoutIsCutOff() async throws {
        try await LargeList.withUpstream { upstream in
            let yaml = LargeList.yaml(upstream, admin: true, server: "drainTimeout: 500ms")
            let log = CapturedLog()
            let (connection, termination) = try await withFolio(yaml, logger: log.logger()) { folio in
                let connection = try await LargeList.slowAnswer(port: folio.clientPort)
                return connection
            }
            #expect(termination == .cutOff)
            // No request is in flight, only an answer: the line says both.
            let cutOff = try log.messages("drain timeout: cutting off requests and answers still in flight")
            #expect(cutOff.count == 1)
            #expect(cutOff.first?["in_flight"].map { "\($0)" } == "0")
            // Cut off means closed: the client reading now gets part of the answer, then the end.
            try await connection.readSlowly(upTo: .max, pause: .milliseconds(1), limit: .seconds(20))
            #expect(connection.isClosed)
            let progress = try #require(connection.answerProgress)
            #expect(progress.bodyBytes < progress.contentLength)
            await connection.close()
        }
    }

    /// A request sent on a connection the drain is closing (its last answer still being sent)
    /// is not read (NIO's pipeline handler drops it once quiescing): it would be answered only
    /// in part when the close lands.
    @Test func aRequestBehindADrainingConnectionsCloseIsNotRead() async throws {
        try await LargeList.withUpstream { upstream in
            let yaml = LargeList.yaml(upstream, admin: true, server: "drainTimeout: 60s")
            let (connection, termination) = try await withFolio(yaml) { folio in
                _ = try await folio.get(folio.client + LargeList.uri)
                let connection = try await LargeList.slowAnswer(port: folio.clientPort)
                folio.service.drain()
                try await Task.sleep(for: .milliseconds(300))
                try await connection.send(LargeList.request)
                try await connection.readSlowly(upTo: .max, pause: .milliseconds(1))
                return connection
            }
            #expect(termination == .drained)
            #expect(connection.isClosed)
            let progress = try #require(connection.answerProgress)
            #expect(progress.bodyBytes == progress.contentLength, "the first answer whole, and nothing after it")
        }
    }

    @Test func theListenerKeepsAcceptingDuringShutdownDelay() async throws {
        try await withTestUpstream({ _ in .json("[1,2]") }) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true, server: "shutdownDelay: 1h")
            let clientPort = Port()
            let configuration = try ConfigurationLoader.parse(yaml: yaml, file: "t.yaml")
            let server = try buildApplication(
                configuration: configuration, logger: quietLogger, onListening: { clientPort.set($0) })
            let service = ServerLifecycle(server: server, drainSignals: [], reloadSignals: [])
            let running = Task { try await service.run() }
            defer { running.cancel() }
            let port = try await clientPort.value()
            service.drain()
            try await waitUntil("draining") { !server.readiness.isReady }
            // Still within the delay: endpoints are being removed, traffic is still served.
            let status = try await withHTTPClient { http in
                try await http.answer("http://127.0.0.1:\(port)/objects").status
            }
            #expect(status == 200)
            running.cancel()
            _ = await running.result
        }
    }

    @Test func drainTimeoutCutsOffAndReportsIt() async throws {
        let gate = Latch()
        try await withGatedUpstream(gate, .json("[1]")) { upstream in
            let yaml = gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true, server: "drainTimeout: 100ms")
            let (slow, termination) = try await withFolio(yaml) { folio in
                let slow = Task { try await folio.get("\(folio.client)/objects") }
                try await waitUntil("the request reached the upstream") { upstream.requestCount == 1 }
                folio.service.drain()
                return slow
            }
            #expect(termination == .cutOff)
            #expect(termination.exitCode == 1)
            // The cut-off request is abandoned; let its upstream answer so nothing lingers.
            gate.open()
            _ = await slow.result
        }
    }

    @Test func idleServerDrainsCleanly() async throws {
        try await withTestUpstream({ _ in .json("[1]") }) { upstream in
            let (_, termination) = try await withFolio(
                gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true)
            ) { folio async throws in
                #expect(try await folio.get("\(folio.client)/objects").status == 200)
            }
            #expect(termination == .drained)
        }
    }

    @Test func aListenerThatCannotBindIsAnError() async throws {
        try await withTestUpstream({ _ in .json("[1]") }) { taken in
            let yaml = listeningOnTakenPortYAML(taken)
            let configuration = try ConfigurationLoader.parse(yaml: yaml, file: "t.yaml")
            let server = try buildApplication(configuration: configuration, logger: quietLogger)
            let service = ServerLifecycle(server: server, drainSignals: [], reloadSignals: [])
            await #expect(throws: (any Error).self) { try await service.run() }
        }
    }
}

/// Whether a TCP connection to the loopback port is accepted.
func canConnect(port: Int) async -> Bool {
    do {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get()
        try? await channel.close()
        return true
    } catch {
        return false
    }
}
