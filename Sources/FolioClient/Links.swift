import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The links of one answer (`first`, `next`, …), read from the `Link` header (SPEC 3.2: sent in
/// every dialect) and, where the dialect has them, from the body.
struct Links: Sendable, Equatable {
    var byRel: [String: String] = [:]

    subscript(rel: String) -> String? {
        get { byRel[rel] }
        set { byRel[rel] = newValue }
    }

    /// Parses `<uri>; rel="first", <uri>; rel="next"` (RFC 8288; only what Folio writes: one
    /// rel per link, URIs without `>`).
    init(header: String?) {
        guard let header else { return }
        var rest = Substring(header)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let uri = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            let parameters = rest.prefix { $0 != "<" }
            if let relRange = parameters.range(of: "rel=") {
                let value = parameters[relRange.upperBound...].prefix { $0 != ";" && $0 != "," }
                let rel = value.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
                if byRel[rel] == nil { byRel[rel] = uri }
            }
        }
    }

    init() {}

    /// The `snapshot` query parameter of the first link that has one.
    var snapshot: String? {
        for rel in ["first", "next", "prev", "last", "self"] {
            if let uri = byRel[rel], let token = Self.snapshot(in: uri) { return token }
        }
        return nil
    }

    static func snapshot(in uri: String) -> String? {
        URLComponents(string: uri)?.queryItems?.first { $0.name == "snapshot" }?.value
    }
}

extension HTTPURLResponse {
    /// One header's value, looked up case-insensitively.
    func header(_ name: String) -> String? {
        value(forHTTPHeaderField: name)
    }
}
