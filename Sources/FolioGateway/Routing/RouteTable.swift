import FolioConfiguration
import FolioEngine

/// The route a request path selected, with its decoded placeholder values.
public struct RouteMatch: Sendable, Equatable {
    /// Index into the patterns the table was built from (= `Configuration.routes`).
    public let routeIndex: Int
    /// Placeholder name → decoded value.
    public let parameters: [String: String]

    public init(routeIndex: Int, parameters: [String: String]) {
        self.routeIndex = routeIndex
        self.parameters = parameters
    }
}

/// Folio's own path matcher: Hummingbird's router cannot express the precedence of docs/CONFIG.md,
/// "Route paths", beside a fallback (its `**` is no catch-all next to `{param}` routes).
///
/// Patterns are grouped by segment count; a request decodes its segments once and scans its
/// group. Route counts are small, so a scan beats a trie in simplicity at no measurable cost.
public struct RouteTable: Sendable {
    /// A request path no route may see (400), and the route it matched when one did.
    public struct Refusal: Error, Sendable {
        public let error: FolioError
        /// The route whose placeholder value was refused; nil when no segment could be decoded.
        public let routeIndex: Int?
    }

    private let patterns: [RoutePattern]
    private let bySegmentCount: [Int: [Int]]
    /// Routes without placeholders or escapes, by their path as a request spells it: a
    /// request path equal to one byte for byte matches it, and no other route can beat a route
    /// that is literal everywhere, so these are found without decoding (most requests).
    private let literalPaths: [Substring: Int]

    public init(patterns: [RoutePattern]) {
        self.patterns = patterns
        var groups: [Int: [Int]] = [:]
        var literalPaths: [Substring: Int] = [:]
        for (index, pattern) in patterns.enumerated() {
            groups[pattern.segments.count, default: []].append(index)
            let literal = pattern.segments.allSatisfy {
                if case .literal = $0 { return true } else { return false }
            }
            if literal, !pattern.text.contains("%"), literalPaths[Substring(pattern.text)] == nil {
                literalPaths[Substring(pattern.text)] = index
            }
        }
        self.bySegmentCount = groups
        self.literalPaths = literalPaths
    }

    /// The route for `rawPath` (as received: percent-encoded, no query), or `nil`.
    ///
    /// Segments compare case-sensitively after percent-decoding; where several routes match, the
    /// one with a literal at the first position where their kinds differ wins; a trailing slash
    /// is a segment of its own. Throws 400 when a segment's percent-encoding is bad, or when the
    /// chosen route's placeholder value is `.` or `..` or holds `/`, `?` or `#` (it would change
    /// the upstream URL's structure); that refusal names the chosen route, whose answer it is.
    public func match(rawPath: Substring) throws(Refusal) -> RouteMatch? {
        guard rawPath.utf8.first == UInt8(ascii: "/") else { return nil }
        if let index = literalPaths[rawPath] { return RouteMatch(routeIndex: index, parameters: [:]) }
        let rawSegments = rawPath.utf8.dropFirst().split(
            separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard let candidates = bySegmentCount[rawSegments.count] else { return nil }
        var decoded: [String] = []
        decoded.reserveCapacity(rawSegments.count)
        for raw in rawSegments {
            guard let text = URIText.decodingPath(Substring(raw)) else {
                throw Refusal(error: .invalidPath(segment: Substring(raw)), routeIndex: nil)
            }
            decoded.append(text)
        }
        var best: Int? = nil
        for index in candidates where matches(patterns[index], decoded) {
            if let current = best {
                if prefers(patterns[index], over: patterns[current]) { best = index }
            } else {
                best = index
            }
        }
        guard let chosen = best else { return nil }
        var parameters: [String: String] = [:]
        for (segment, value) in zip(patterns[chosen].segments, decoded) {
            guard case .placeholder(let name) = segment else { continue }
            if value == "." || value == ".." || value.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
                throw Refusal(error: .invalidPathParameter(name: name), routeIndex: chosen)
            }
            parameters[name] = value
        }
        return RouteMatch(routeIndex: chosen, parameters: parameters)
    }

    /// What a request path found: a route, a refusal (400, of a route when it names one), or
    /// nothing (the fallback's). `routeIndex` is the route whose answer it is, either way.
    public enum Lookup: Sendable {
        case matched(RouteMatch)
        case refused(Refusal)
        case unmatched

        public var routeIndex: Int? {
            switch self {
            case .matched(let match): match.routeIndex
            case .refused(let refusal): refusal.routeIndex
            case .unmatched: nil
            }
        }
    }

    /// `match(rawPath:)` as a value: the gateway needs the route before it decides whether the
    /// refusal or another one (a request limit) is the answer.
    public func lookup(rawPath: Substring) -> Lookup {
        do {
            guard let match = try match(rawPath: rawPath) else { return .unmatched }
            return .matched(match)
        } catch {
            return .refused(error)
        }
    }

    private func matches(_ pattern: RoutePattern, _ segments: [String]) -> Bool {
        for (segment, value) in zip(pattern.segments, segments) {
            switch segment {
            case .literal(let text): if text != value { return false }
            case .placeholder: if value.isEmpty { return false }
            }
        }
        return true
    }

    /// A literal beats a placeholder at the first position where the two differ in kind;
    /// identical shapes keep the earlier route (the loader rejects those anyway).
    private func prefers(_ candidate: RoutePattern, over current: RoutePattern) -> Bool {
        for (a, b) in zip(candidate.segments, current.segments) {
            switch (a, b) {
            case (.literal, .placeholder): return true
            case (.placeholder, .literal): return false
            default: continue
            }
        }
        return false
    }
}
