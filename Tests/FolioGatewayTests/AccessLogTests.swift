import Foundation
import Logging
import Testing

@testable import FolioGateway

@Suite("Access log: one JSON line per request, no secrets")
struct AccessLogTests {
    /// Folio with an admin listener in front of an upstream whose list is `body`, logging
    /// through `logger`.
    private func withObjects(
        _ body: String = "[1]", top: String = "", logger: Logger, _ work: @Sendable (RunningFolio) async throws -> Void
    ) async throws {
        try await withTestUpstream({ _ in .json(body) }) { upstream in
            _ = try await withFolio(
                gatewayYAML(upstream: upstream.baseURL + "/objects", admin: true, top: top), logger: logger, work)
        }
    }

    @Test func oneValidJSONLineWithTheFields() async throws {
        let log = CapturedLog()
        try await withObjects("[1,2,3]", logger: log.logger()) { folio async throws in
            let answer = try await folio.get(
                "\(folio.client)/objects?pageSize=2&token=hunter2", headers: [("X-Request-ID", "req-42")])
            #expect(answer.status == 200)
        }
        let lines = try log.messages("request")
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line["level"] as? String == "info")
        #expect((line["time"] as? String)?.hasSuffix("Z") == true)
        #expect(line["method"] as? String == "GET")
        #expect(line["path"] as? String == "/objects")
        #expect(line["route"] as? String == "objects")
        #expect(line["status"] as? Int == 200)
        #expect((line["duration_ms"] as? Double).map { $0 >= 0 } == true)
        #expect(line["request_id"] as? String == "req-42")
        #expect(line["cache_status"] as? String == "folio; fwd=miss; stored")
        #expect(line["peer"] as? String == "127.0.0.1")
        let raw = try #require(log.all.first { $0.contains("\"request\"") })
        #expect(!raw.contains("hunter2"))
        #expect(raw.hasSuffix("}\n"))
        #expect(raw.filter { $0 == "\n" }.count == 1)
    }

    @Test func credentialsAndQueryNeverReachTheLog() async throws {
        let log = CapturedLog()
        try await withObjects(logger: log.logger(level: .trace)) { folio async throws in
            _ = try await folio.get(
                "\(folio.client)/objects?api_key=querysecret",
                headers: [("Authorization", "Bearer authsecret"), ("Cookie", "session=cookiesecret")])
        }
        let text = log.all.joined()
        #expect(!text.isEmpty)
        for secret in ["querysecret", "authsecret", "cookiesecret"] {
            #expect(!text.contains(secret), "\(secret) was logged")
        }
        #expect(try log.messages("request").first?["cache_status"] as? String == "folio; fwd=bypass")
    }

    /// A kept answer written on the event loop (`KeptAnswerHandler`) is logged like any other.
    @Test func anAnswerWrittenOnTheEventLoopIsLoggedAlike() async throws {
        let log = CapturedLog()
        try await withObjects("[1,2,3]", logger: log.logger()) { folio async throws in
            for id in ["first", "second", "third"] {
                let answer = try await folio.get("\(folio.client)/objects?pageSize=2", headers: [("X-Request-ID", id)])
                #expect(answer.status == 200)
            }
            let metrics = try await folio.get("\(folio.admin)/metrics")
            #expect(metrics.text.contains("folio_answers_at_once_total 2"), "\(metrics.text)")
        }
        let lines = try log.messages("request")
        #expect(lines.map { $0["request_id"] as? String } == ["first", "second", "third"])
        for line in lines.dropFirst() {
            #expect((line["cache_status"] as? String)?.hasPrefix("folio; hit; ttl=") == true)
            #expect(line["peer"] as? String == "127.0.0.1")
            #expect(line["path"] as? String == "/objects")
            #expect(line["route"] as? String == "objects")
            #expect(line["status"] as? Int == 200)
        }
    }

    @Test func unmatchedPathsAreLoggedWithRouteNone() async throws {
        let log = CapturedLog()
        try await withObjects(logger: log.logger()) { folio async throws in
            #expect(try await folio.get("\(folio.client)/elsewhere").status == 404)
        }
        let line = try #require(try log.messages("request").first)
        #expect(line["route"] as? String == "none")
        #expect(line["status"] as? Int == 404)
        #expect(line["cache_status"] == nil)
        #expect((line["request_id"] as? String)?.isEmpty == false)
    }

    @Test func accessFalseLogsNoRequestLines() async throws {
        let log = CapturedLog()
        try await withObjects(top: "logging:\n  access: false", logger: log.logger()) { folio async throws in
            #expect(try await folio.get("\(folio.client)/objects").status == 200)
        }
        #expect(try log.messages("request").isEmpty)
        #expect(try !log.messages("listening").isEmpty)
    }

    @Test func aLevelAboveInfoSilencesTheAccessLog() async throws {
        let log = CapturedLog()
        try await withObjects(logger: log.logger(level: .warning)) { folio async throws in
            #expect(try await folio.get("\(folio.client)/objects").status == 200)
        }
        #expect(try log.messages("request").isEmpty)
    }

    @Test func handlerWritesTypedJSONValuesAndEscapes() throws {
        let log = CapturedLog()
        let logger = log.logger()
        logger.info(
            "quote \" and \u{01} control",
            metadata: [
                "count": .stringConvertible(3), "ratio": .stringConvertible(0.5), "flag": .stringConvertible(true),
                "list": .array(["a", .stringConvertible(2)]), "nested": .dictionary(["k": "v\n"]),
            ])
        logger.debug("below the level")
        #expect(log.all.count == 1)
        let object = try #require(try log.objects.first)
        #expect(object["message"] as? String == "quote \" and \u{01} control")
        #expect(object["count"] as? Int == 3)
        #expect(object["ratio"] as? Double == 0.5)
        #expect(object["flag"] as? Bool == true)
        #expect((object["list"] as? [Any])?.count == 2)
        #expect((object["nested"] as? [String: Any])?["k"] as? String == "v\n")
        #expect(object["label"] as? String == "folio")
    }
}
