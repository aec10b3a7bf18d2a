import Foundation
import HTTPTypes
import Logging
import Testing

@testable import FolioGateway

/// Trace headers a client sends broken (docs/API.md, "Trace context"; issue 39): Folio checks
/// them before the tracing library sees them and gives the library nothing else, so what the
/// library logs on a carrier it cannot read (every request header, credentials included) can
/// never happen.
@Suite("Trace context: validated before the tracer, never a header in the log")
struct TraceContextTests {
    static let trace = TracingTests.clientTrace
    static let span = TracingTests.clientSpan
    static let valid = TracingTests.sampled

    /// Credentials and other headers a library printing the request's fields would echo.
    static let secrets: [(name: String, value: String, secret: String)] = [
        ("Authorization", "Bearer authsecret1", "authsecret1"),
        ("Cookie", "session=cookiesecret2; other=cookiesecret3", "cookiesecret2"),
        ("Proxy-Authorization", "Basic proxysecret4", "proxysecret4"),
        ("X-Api-Key", "apikeysecret5", "apikeysecret5"),
        ("X-Note", "notesecret6", "notesecret6"),
    ]

    /// Every kind of broken trace context: traceparent shapes, then a valid traceparent with a
    /// bad, huge or repeated tracestate, duplicated fields, and a tracestate alone.
    static let broken: [[(String, String)]] = [
        [("traceparent", "zz-bad")],
        [("traceparent", "00-\(trace)-\(span)-1")],
        [("traceparent", valid + "-more")],
        [("traceparent", valid.uppercased())],
        [("traceparent", "ff-\(trace)-\(span)-01")],
        [("traceparent", "00-\(String(repeating: "0", count: 32))-\(span)-01")],
        [("traceparent", "00-\(trace)-0000000000000000-01")],
        [("traceparent", "00_\(trace)_\(span)_01")],
        [("traceparent", "00-\(trace)-\(span)-0g")],
        [("traceparent", String(repeating: "z", count: 20_000))],
        [("traceparent", valid), ("traceparent", valid)],
        [("traceparent", valid), ("traceparent", "zz-bad")],
        [("traceparent", valid), ("tracestate", "=bad")],
        [("traceparent", valid), ("tracestate", "Upper=1")],
        [("traceparent", valid), ("tracestate", "k=v,k=w")],
        [("traceparent", valid), ("tracestate", "k=v=w")],
        [("traceparent", valid), ("tracestate", "k=" + String(repeating: "x", count: 300))],
        [("traceparent", valid), ("tracestate", "k=" + String(repeating: "x", count: 40_000))],
        [("traceparent", valid), ("tracestate", (0..<40).map { "k\($0)=v" }.joined(separator: ","))],
        [("traceparent", valid), ("tracestate", "a=1"), ("tracestate", "b")],
        [("traceparent", "zz-bad"), ("tracestate", "k=" + String(repeating: "y", count: 40_000))],
        [("tracestate", "k=v")],
    ]

    /// A gateway in front of `upstream`, which also takes OTLP exports when `exporter`; header
    /// blocks up to 64 KiB, so the huge values reach the tracer rather than a 431.
    static func yaml(_ upstream: TestUpstream, exporter: Bool) -> String {
        gatewayYAML(
            upstream: upstream.baseURL + "/objects", admin: true,
            top: "limits:\n  maxHeaderBytes: 64KiB"
                + (exporter ? "\ntracing:\n  otlpEndpoint: \(upstream.baseURL)" : ""))
    }

    static let handler: TestUpstream.Handler = { request in
        request.path == "/v1/traces" ? .json("{}") : .json(objectsBody(3).body)
    }

    /// The sweep of the issue, with and without an exporter: no log line, at any level, holds a
    /// header value, and none is longer than a small bound.
    @Test(arguments: [false, true])
    func noBrokenTraceContextPutsAHeaderInTheLog(exporter: Bool) async throws {
        let log = CapturedLog()
        let startup = try await withTestUpstream(Self.handler) { upstream in
            let (startup, _) = try await withFolio(
                Self.yaml(upstream, exporter: exporter), logger: log.logger(level: .trace)
            ) { folio in
                let startup = log.all.count
                for trace in Self.broken {
                    let headers = Self.secrets.map { ($0.name, $0.value) } + trace
                    let get = try await folio.get("\(folio.client)/objects", headers: headers)
                    #expect(get.status == 200, "\(trace.map(\.0))")
                    let post = try await folio.post("\(folio.client)/objects", headers: headers)
                    #expect(post.status == 200, "\(trace.map(\.0))")
                }
                return startup
            }
            // What went upstream: never a traceparent or tracestate Folio did not validate.
            for request in upstream.requests where request.path == "/objects" {
                let parents = request.headerValues("traceparent")
                #expect(parents.count == 1)
                #expect(parents.allSatisfy { ClientTraceContext.parseTraceparent($0) == .success($0) }, "\(parents)")
                #expect(request.headerValues("tracestate").isEmpty, "\(request.headerValues("tracestate"))")
            }
            return startup
        }
        let lines = log.all
        #expect(lines.count >= 2 * Self.broken.count, "the access log is there")
        for (index, line) in lines.enumerated() {
            for (name, _, secret) in Self.secrets {
                #expect(!line.contains(secret), "\(name) was logged: \(line.prefix(300))")
            }
            #expect(!line.contains("xxxxxxxx") && !line.contains("yyyyyyyy") && !line.contains("zzzzzzzz"))
            // Lines from the requests on (the startup's describe the config, at debug level).
            // A client's broken header is no warning either (one per request would flood the log).
            if index >= startup {
                #expect(line.utf8.count <= 1024, "a line of \(line.utf8.count) bytes: \(line.prefix(300))")
                let quiet = ["trace", "debug", "info", "notice"].contains { line.contains("\"level\":\"\($0)\"") }
                #expect(quiet, "\(line)")
            }
        }
        let ignored = try log.messages("trace context ignored")
        #expect(ignored.count == 2 * (Self.broken.count - 1), "every broken context but the lone tracestate")
        #expect(ignored.allSatisfy { ($0["reason"] as? String)?.isEmpty == false })
    }

    /// A valid traceparent is continued whatever its tracestate: a bad one is dropped, a valid
    /// one goes on; a later version's traceparent is read as W3C says and sent as version 00.
    @Test func aValidTraceparentIsContinuedAndOnlyAValidTracestateFollows() async throws {
        try await withTestUpstream(Self.handler) { upstream in
            _ = try await withFolio(Self.yaml(upstream, exporter: false)) { folio in
                let cases: [([(String, String)], expectedState: String?)] = [
                    ([("traceparent", Self.valid), ("tracestate", "k=v,=bad")], nil),
                    (
                        [("traceparent", Self.valid), ("tracestate", "congo=t61rcWkgMzE,\t rojo=00f067aa0ba902b7")],
                        "congo=t61rcWkgMzE, rojo=00f067aa0ba902b7"
                    ),
                    ([("traceparent", Self.valid), ("tracestate", "a@b=1"), ("tracestate", ",c=2 ,")], "a@b=1, c=2"),
                    ([("traceparent", "01-\(Self.trace)-\(Self.span)-03-what-comes-later")], nil),
                ]
                for (headers, expectedState) in cases {
                    #expect(try await folio.post("\(folio.client)/objects", headers: headers).status == 200)
                    let sent = try #require(upstream.requests.last)
                    let parent = try #require(TracingTests.traceparent(sent.header("traceparent")), "\(headers)")
                    #expect(parent.trace == Self.trace, "\(headers)")
                    #expect(parent.span != Self.span)
                    #expect(parent.flags == "01")
                    #expect(sent.header("tracestate") == expectedState, "\(headers)")
                }
            }
        }
    }

    @Test(arguments: [
        (valid, valid),
        ("01-\(trace)-\(span)-03", valid),
        ("fe-\(trace)-\(span)-00-anything", "00-\(trace)-\(span)-00"),
        ("00-\(trace)-\(span)-ff", "00-\(trace)-\(span)-ff"),
    ])
    func validTraceparents(sent: String, read: String) {
        #expect(ClientTraceContext.parseTraceparent(sent) == .success(read))
    }

    @Test(arguments: [
        "", "00", "zz-bad", valid + "-", valid + " ", " " + valid, valid.uppercased(), "01-\(trace)-\(span)-01x",
        "ff-\(trace)-\(span)-01", "00-\(trace)-\(span)-1g", "00-\(trace.dropLast())-\(span)0-01",
        "00-\(String(repeating: "0", count: 32))-\(span)-01", "00-\(trace)-\(String(repeating: "0", count: 16))-01",
        "00-\(trace)-\(span)-01\u{e9}", "\u{e9}0-\(trace)-\(span)-0",
    ])
    func invalidTraceparents(sent: String) {
        #expect((try? ClientTraceContext.parseTraceparent(sent).get()) == nil, "\(sent)")
    }

    @Test func tracestateFollowsTheW3CGrammar() {
        /// The tracestate carried, `none`, or `invalid`.
        func read(_ values: [String]) -> String {
            switch ClientTraceContext.parseTracestate(values) {
            case .success(let value): value ?? "none"
            case .failure: "invalid"
            }
        }
        #expect(read([]) == "none")
        #expect(read([" , ,"]) == "none")
        #expect(read(["a=1", "b=2"]) == "a=1,b=2")
        #expect(read(["t3n@s-1_*/=v a!~", " k= v"]) == "t3n@s-1_*/=v a!~,k= v")
        #expect(read([(0..<32).map { "k\($0)=v" }.joined(separator: ",")]) != "invalid")
        #expect(read([(0..<33).map { "k\($0)=v" }.joined(separator: ",")]) == "invalid")
        #expect(read(["k=" + String(repeating: "v", count: 256)]) != "invalid")
        #expect(read(["k=" + String(repeating: "v", count: 257)]) == "invalid")
        let large = (0..<3).map { "k\($0)=" + String(repeating: "v", count: 200) }
        #expect(read([large.joined(separator: ",")]) == "invalid")
        for bad in [
            "k", "=v", "k=", "K=v", "1k=v", "k=v=w", "k=a,b", "k=v,k=w", "k=\u{7f}", "k=\u{e9}", "@s=v", "t@=v",
            "t@1s=v", "t@" + String(repeating: "s", count: 15) + "=v", "k =v", "k=v\u{0}",
        ] {
            #expect(read([bad]) == "invalid", "\(bad)")
        }
    }

    /// Whatever prints the tracer's carrier prints no value.
    @Test func theCarrierDescribesNoValue() throws {
        var flaws: [ClientTraceContext.Flaw] = []
        var fields = HTTPFields()
        fields.append(HTTPField(name: HTTPField.Name("traceparent")!, value: Self.valid))
        fields.append(HTTPField(name: HTTPField.Name("tracestate")!, value: "k=secret"))
        let context = try #require(ClientTraceContext.read(fields, flaws: &flaws))
        #expect(flaws.isEmpty)
        let printed = String(describing: context)
        #expect(!printed.contains("secret"))
        #expect(!printed.contains(Self.trace))
    }
}

extension TraceContextTests {
    /// The tracing library's own lines reach the log bounded, and never with a carrier.
    @Test func theLibrarysLinesAreBounded() throws {
        let log = CapturedLog()
        let logger = Logger(label: "folio") { _ in LibraryLogHandler(wrapping: log.logger(level: .debug)) }
        let huge = String(repeating: "s", count: 50_000)
        logger.warning(
            "Failed to extract span context. \(huge)", error: TestFailure(huge),
            metadata: ["carrier": "[authorization: \(huge)]", "reason": "\(huge)", "count": .stringConvertible(3)])
        logger.trace("below the level")
        let line = try #require(log.all.first)
        #expect(log.all.count == 1)
        #expect(!line.contains("carrier") && !line.contains("authorization"))
        #expect(line.utf8.count < 1024, "\(line.prefix(300))")
        let object = try #require(try log.objects.first)
        #expect(object["level"] as? String == "warning")
        #expect(object["count"] as? Int == 3)
        #expect((object["reason"] as? String)?.hasPrefix("sss") == true)
    }
}
