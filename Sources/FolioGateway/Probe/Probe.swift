import FolioConfiguration
import FolioEngine
import Logging
import NIOHTTP1
import Synchronization

/// `folio probe`: fetches each route's upstream once exactly as a fill would (same client,
/// limits, crawl and indexer; nothing is cached or served) and reports what Folio saw.
public enum Probe {
    /// A route name that is not in the config.
    public struct UnknownRoute: Error, CustomStringConvertible {
        public let name: String
        public let known: [String]
        public var description: String {
            "no route named '\(name)' (routes: \(known.joined(separator: ", ")))"
        }
    }

    /// Probes the routes named in `names` (every route when empty), one after another.
    ///
    /// - Parameters:
    ///   - parameters: values for the upstream URL's placeholders (`{id}`), by name.
    ///   - progress: told of every upstream page as it completes (route name, page number,
    ///     what came back), for progress on long crawls.
    public static func run(
        _ configuration: Configuration,
        routes names: [String] = [],
        parameters: [String: String] = [:],
        progress: @escaping @Sendable (_ route: String, _ page: Int, UpstreamExchange) -> Void = { _, _, _ in }
    ) async throws -> [ProbeReport] {
        let known = configuration.routes.map(\.name)
        if let unknown = names.first(where: { !known.contains($0) }) { throw UnknownRoute(name: unknown, known: known) }
        let recorder = ExchangeRecorder(progress: progress)
        let upstream = UpstreamClient(
            settings: UpstreamSettings(configuration), observer: { recorder.record($0) })
        let gateway = Gateway(
            configuration: configuration, upstream: upstream,
            logger: Logger(label: "folio.probe", factory: { _ in SwiftLogNoOpLogHandler() }))
        var reports: [ProbeReport] = []
        for route in gateway.routes where names.isEmpty || names.contains(route.name) {
            recorder.start(route.name)
            reports.append(await probe(route, pipeline: gateway.pipeline, parameters: parameters, recorder: recorder))
        }
        try await upstream.shutdown()
        return reports
    }
}

/// Collects the exchanges of the route being probed.
final class ExchangeRecorder: Sendable {
    private struct State {
        var route = ""
        var exchanges: [UpstreamExchange] = []
    }

    private let state = Mutex(State())
    private let progress: @Sendable (String, Int, UpstreamExchange) -> Void

    init(progress: @escaping @Sendable (String, Int, UpstreamExchange) -> Void) {
        self.progress = progress
    }

    func start(_ route: String) {
        state.withLock { $0 = State(route: route) }
    }

    func record(_ exchange: UpstreamExchange) {
        let (route, page) = state.withLock { state in
            state.exchanges.append(exchange)
            return (state.route, state.exchanges.count)
        }
        progress(route, page, exchange)
    }

    var exchanges: [UpstreamExchange] { state.withLock { $0.exchanges } }
}

extension Probe {
    /// One route's probe: a fill without a cache key, timed, with every page it fetched.
    static func probe(
        _ route: CompiledRoute, pipeline: FillPipeline, parameters: [String: String], recorder: ExchangeRecorder
    ) async -> ProbeReport {
        let url = route.config.upstream.render(parameters)
        var report = ProbeReport(route: route.name, url: url, ok: false, bytes: 0, milliseconds: 0, pages: [])
        let missing = route.config.upstream.placeholderNames.filter { parameters[$0] == nil }
        guard missing.isEmpty else {
            report.url = route.config.upstream.text
            report.problem = .init(
                code: "missing-parameter", status: 0,
                detail: "the upstream URL needs " + missing.map { "{\($0)}" }.joined(separator: ", ")
                    + ": pass " + missing.map { "--param \($0)=VALUE" }.joined(separator: " "))
            return report
        }
        let plan = FillPlan(key: nil, url: url) {
            FillPlan.listRequestHeaders([:], peer: nil, peerIsTrusted: false, requestID: RequestID.generate())
        }
        let started = ContinuousClock.now
        do {
            switch try await pipeline.fill(plan, route: route, previous: nil) {
            case .stored(let snapshot), .uncacheable(let snapshot), .unstored(let snapshot),
                .revalidated(let snapshot, _), .shared(let snapshot, _):
                report.ok = true
                report.items = snapshot.list.count
            case .upstream(let answer):
                report.problem = .init(
                    code: "upstream-status", status: answer.status,
                    detail: "the upstream answered \(answer.status); Folio would pass it through and cache nothing")
            }
        } catch {
            // What a client would get, plus the upstream failure's own reason for the operator.
            let problem = FolioError.mapping(error)
            let reason = (error as? UpstreamError).map { " (\($0.reason))" } ?? ""
            report.problem = .init(code: problem.code, status: problem.status, detail: problem.detail + reason)
        }
        report.milliseconds = (ContinuousClock.now - started).fractionalMilliseconds
        let exchanges = recorder.exchanges
        report.status = exchanges.first?.head.status
        report.bytes = exchanges.reduce(0) { $0 + ($1.bodyBytes ?? 0) }
        report.pages = exchanges.map { exchange in
            ProbeReport.Page(
                url: exchange.head.url, status: exchange.head.status, bytes: exchange.bodyBytes,
                milliseconds: exchange.duration.fractionalMilliseconds,
                cacheControl: exchange.head.headers.joined("cache-control"),
                expires: exchange.head.headers.joined("expires"))
        }
        if report.ok { describeFreshness(of: exchanges, plan: plan, route: route, pipeline: pipeline, into: &report) }
        return report
    }

    /// The list's freshness as the fill computed it (the shortest page's for a crawl), why,
    /// and its validators.
    private static func describeFreshness(
        of exchanges: [UpstreamExchange], plan: FillPlan, route: CompiledRoute, pipeline: FillPipeline,
        into report: inout ProbeReport
    ) {
        let pages = exchanges.map { pipeline.freshness(of: $0.head, plan: plan, route: route) }
        guard let first = pages.first else { return }
        var shortest = 0
        var combined = first
        for (index, page) in pages.enumerated().dropFirst() {
            if page.lifetime < pages[shortest].lifetime || (!page.storable && pages[shortest].storable) {
                shortest = index
            }
            combined = combined.crawled(with: page)
        }
        let head = exchanges[shortest].head
        var why: String
        if let reason = pages[shortest].reason {
            why = "not cacheable: \(reason)"
        } else if let cacheControl = head.headers.joined("cache-control") {
            why = "Cache-Control: \(cacheControl)"
            if let age = head.headers.joined("age") { why += ", Age: \(age)" }
        } else if let expires = head.headers.joined("expires") {
            why = "Expires: \(expires)"
        } else {
            why = "no Cache-Control or Expires: the route's cache.ttl"
        }
        if pages.count > 1 { why = "page \(shortest + 1) of \(pages.count) is the least fresh; \(why)" }
        report.freshness = .init(
            cacheable: combined.storable, seconds: Int(combined.lifetime.components.seconds),
            mustRevalidate: combined.mustRevalidate, why: why)
        if pages.count == 1 {
            report.etag = first.etag
            report.lastModified = first.lastModified
        }
    }
}

extension HTTPHeaders {
    /// Every value of `name` joined by ", ", nil when absent.
    fileprivate func joined(_ name: String) -> String? {
        let values = self[name]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}
