import FolioEngine
import HTTPTypes
import NIOHTTP1

extension ProxyHeaders {
    /// Removes hop-by-hop headers (RFC 9110 7.6.1): `Connection` and every header it names,
    /// `Keep-Alive`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade` and all `Proxy-*`.
    public static func removeHopByHop(_ headers: inout HTTPHeaders) {
        removeConnectionNamed(&headers)
        remove(&headers, where: isHopByHop)
    }

    /// Removes the headers `Connection` names (read before `Connection` itself goes).
    static func removeConnectionNamed(_ headers: inout HTTPHeaders) {
        for name in headers[canonicalForm: "connection"] where !name.isEmpty {
            headers.remove(name: String(name))
        }
    }

    /// The lower-cased names the request's `Connection` fields list: hop-by-hop for this
    /// request, as `removeConnectionNamed` drops them from headers that are forwarded.
    static func connectionNamed(_ fields: HTTPFields) -> Set<String> {
        guard fields[.connection] != nil else { return [] }
        var names: Set<String> = []
        for value in fields[values: .connection] {
            for token in value.split(separator: ",") {
                let name = token.trimmingSpaces()
                if !name.isEmpty { names.insert(name.lowercased()) }
            }
        }
        return names
    }

    /// Hop-by-hop by name alone, whatever `Connection` says.
    static func isHopByHop(_ name: String) -> Bool {
        name.hasASCIICaseInsensitivePrefix("proxy-")
            || hopByHopNames.contains { name.isASCIICaseInsensitiveEqual(to: $0) }
    }

    private static let hopByHopNames = ["connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade"]
}

extension String {
    /// Compares with a lowercase ASCII `other`, ignoring the case of `self`, without allocating.
    func isASCIICaseInsensitiveEqual(to other: String) -> Bool {
        utf8.count == other.utf8.count && hasASCIICaseInsensitivePrefix(other)
    }

    /// Whether `self` starts with the lowercase ASCII `prefix`, ignoring the case of `self`.
    func hasASCIICaseInsensitivePrefix(_ prefix: String) -> Bool {
        var own = utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = own.next() else { return false }
            let lowered = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            guard lowered == expected else { return false }
        }
        return true
    }
}
