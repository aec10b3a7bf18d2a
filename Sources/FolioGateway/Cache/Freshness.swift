import FolioEngine
import Foundation

/// What an upstream answer's caching headers allow (RFC 9111 for a shared cache; README,
/// "Caching").
///
/// Pure: computed from header values and the route's fallback `ttl`, so every rule has a
/// table test and no clock is read here.
struct Freshness: Sendable, Equatable {
    /// Whether the list may be stored and shared with other requests.
    var storable: Bool
    /// How long the list is fresh from when it was received (zero: stale at once).
    var lifetime: Duration
    /// `must-revalidate` (or `proxy-revalidate`): never serve it stale, not even on error.
    var mustRevalidate: Bool
    /// The upstream's `Age`: how old the answer already was when it arrived (kept for the
    /// `Age` Folio sends; the lifetime above already has it taken off).
    var age: Duration = .zero
    /// Validators for a conditional refresh.
    var etag: String?
    var lastModified: String?
    /// Why it is not storable, for logs.
    var reason: String?

    /// - Parameters:
    ///   - header: case-insensitive lookup of the upstream answer's header values, joined.
    ///   - credentialPartition: the list is kept in a per-credential partition, where
    ///     `private` answers may be stored (each partition serves one credential only).
    ///   - sharedWithCredentials: the route shares one list for everyone (`authorized:
    ///     shared`) and this request carried credentials: `Vary: Authorization`/`Cookie`
    ///     then means the list is not the same for everyone.
    static func of(
        header: (String) -> String?,
        defaultTTL: Duration,
        credentialPartition: Bool = false,
        sharedWithCredentials: Bool = false
    ) -> Freshness {
        var result = Freshness(
            storable: true, lifetime: defaultTTL, mustRevalidate: false,
            etag: header("etag"), lastModified: header("last-modified"), reason: nil)
        let directives = CacheControl(header("cache-control") ?? "")
        if directives.has("no-store") { return result.uncacheable("no-store") }
        if directives.has("private") && !credentialPartition { return result.uncacheable("private") }
        if header("set-cookie") != nil { return result.uncacheable("Set-Cookie") }
        if let vary = header("vary") {
            let names = vary.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            if names.contains("*") { return result.uncacheable("Vary: *") }
            if sharedWithCredentials, names.contains("authorization") || names.contains("cookie") {
                return result.uncacheable("Vary on credentials")
            }
        }
        // `s-maxage` also means `proxy-revalidate` (RFC 9111 5.2.2.10): a shared cache never
        // serves the answer stale.
        result.mustRevalidate =
            directives.has("must-revalidate") || directives.has("proxy-revalidate") || directives.has("s-maxage")

        // Capped as RFC 9111 1.2.2 caps delta-seconds (2^31), so no sum with it can overflow.
        let age =
            header("age").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { min(max(0, $0), 1 << 31) } ?? 0
        result.age = .seconds(age)
        if directives.has("no-cache") {
            // Every use must be validated upstream first (RFC 9111 5.2.2.4): never fresh, and
            // never served stale — not while revalidating, not on error.
            result.lifetime = .zero
            result.mustRevalidate = true
        } else if let sMaxAge = directives.seconds("s-maxage") {
            result.lifetime = sMaxAge.map { .seconds(max(0, $0 - age)) } ?? .zero
        } else if let maxAge = directives.seconds("max-age") {
            result.lifetime = maxAge.map { .seconds(max(0, $0 - age)) } ?? .zero
        } else if let expires = header("expires") {
            // An invalid Expires (e.g. "0") means already expired (RFC 9111 5.3).
            guard let expiresAt = HTTPDate.parse(expires) else {
                result.lifetime = .zero
                return result
            }
            let date = header("date").flatMap(HTTPDate.parse) ?? Date()
            result.lifetime = .seconds(max(0, Int(expiresAt.timeIntervalSince(date)) - age))
        }
        if directives.invalid { result.lifetime = .zero }
        return result
    }

    /// This crawl's freshness so far combined with one more page's: the shortest lifetime,
    /// storable only if every page is, must-revalidate if any page says so. No validators:
    /// crawled lists are refetched, not revalidated.
    func crawled(with page: Freshness) -> Freshness {
        Freshness(
            storable: storable && page.storable, lifetime: min(lifetime, page.lifetime),
            mustRevalidate: mustRevalidate || page.mustRevalidate, age: max(age, page.age), etag: nil,
            lastModified: nil, reason: reason ?? page.reason)
    }

    private func uncacheable(_ reason: String) -> Freshness {
        var copy = self
        copy.storable = false
        copy.lifetime = .zero
        copy.reason = reason
        return copy
    }
}

/// A parsed `Cache-Control` header: directive names lower-cased, with their arguments.
struct CacheControl: Sendable {
    private var directives: [String: String?] = [:]
    /// A directive whose argument did not parse (e.g. `max-age=abc`), or a freshness directive
    /// given twice with different values (RFC 9111 4.2.1): the answer counts as not fresh.
    private(set) var invalid = false

    init(_ text: String) {
        for part in text.split(separator: ",") {
            let item = part.trimmingCharacters(in: .whitespaces)
            guard !item.isEmpty else { continue }
            if let eq = item.firstIndex(of: "=") {
                let name = item[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
                var value = item[item.index(after: eq)...].trimmingCharacters(in: .whitespaces)
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                if let first = directives[name] {
                    // The first stays; two different lifetimes are a contradiction.
                    if first != value, name == "max-age" || name == "s-maxage" { invalid = true }
                } else {
                    directives[name] = value
                }
            } else {
                directives[item.lowercased()] = .some(nil)
            }
        }
        for name in ["max-age", "s-maxage"] where directives[name] != nil {
            if seconds(name) == .some(nil) { invalid = true }
        }
    }

    func has(_ name: String) -> Bool { directives[name] != nil }

    /// nil: absent; .some(nil): present but not a non-negative integer; .some(n): n seconds.
    func seconds(_ name: String) -> Int?? {
        guard let entry = directives[name] else { return nil }
        guard let text = entry, !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else {
            return .some(nil)
        }
        return .some(Int(text.prefix(10)) ?? Int.max)
    }
}

extension Snapshot {
    /// The same list with the freshness of a new answer (a 304, or a refill that minted the
    /// same token), received at `now`.
    func renewed(at now: ContinuousClock.Instant, freshness: Freshness) -> Snapshot {
        renewed(
            storedAt: now, freshUntil: now + freshness.lifetime, etag: freshness.etag,
            lastModified: freshness.lastModified, mustRevalidate: freshness.mustRevalidate, initialAge: freshness.age)
    }
}
