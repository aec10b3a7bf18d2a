import HTTPTypes

/// The W3C trace context a client sent (docs/API.md, "Trace context"), checked by Folio before
/// the tracing library sees it.
///
/// The library is handed only these two validated values, never the request's fields: when it
/// fails to read a carrier it logs the carrier whole, which for the request's fields would be
/// every header the client sent, credentials included. Checked here, it has nothing to refuse
/// and nothing else to echo.
struct ClientTraceContext: Sendable, Equatable, CustomStringConvertible {
    /// `00-TRACE-PARENT-FLAGS`, lowercase: the client's own when it is version `00`, rewritten to
    /// `00` from a later version's first fields.
    let traceparent: String
    /// The members of the client's `tracestate` fields joined by `,`; nil when none was sent, or
    /// what was sent is invalid or too large (dropped whole; the parent stays).
    let tracestate: String?

    /// Why a client's trace context was not continued, or its `tracestate` dropped: static text
    /// for the debug log, which never quotes a header.
    enum Flaw: String, Error, Sendable {
        case traceparentRepeated = "traceparent sent more than once"
        case traceparentMalformed = "traceparent malformed"
        case traceparentVersion = "traceparent version ff"
        case traceparentZeroID = "traceparent with an all-zero id"
        case tracestateTooLarge = "tracestate over 512 bytes or 32 members"
        case tracestateMalformed = "tracestate malformed"
        case tracestateRepeatedKey = "tracestate names a key twice"
    }

    /// Bounds of `tracestate` (W3C Trace Context 3.3.1.5): at most 32 members; vendors must
    /// propagate at least 512 bytes of it, and Folio propagates exactly that much at most.
    static let maxTracestateBytes = 512
    static let maxTracestateMembers = 32

    /// The trace context of `fields`; nil without a usable `traceparent`. `flaws` gets each
    /// reason something was ignored.
    static func read(_ fields: HTTPFields, flaws: inout [Flaw]) -> ClientTraceContext? {
        let parents = fields[values: .traceparent]
        guard !parents.isEmpty else { return nil }
        guard parents.count == 1 else {
            flaws.append(.traceparentRepeated)
            return nil
        }
        let traceparent: String
        switch Self.parseTraceparent(parents[0]) {
        case .success(let value): traceparent = value
        case .failure(let flaw):
            flaws.append(flaw)
            return nil
        }
        var tracestate: String?
        switch Self.parseTracestate(fields[values: .tracestate]) {
        case .success(let value): tracestate = value
        case .failure(let flaw): flaws.append(flaw)
        }
        return ClientTraceContext(traceparent: traceparent, tracestate: tracestate)
    }

    /// Never the values: whatever prints a carrier prints this.
    var description: String { "ClientTraceContext" }

    // MARK: traceparent

    /// `version-traceid-parentid-flags` (W3C Trace Context 3.2): lowercase hex, ids not all
    /// zero, version `ff` invalid. Version `00` is exactly 55 bytes; a later version may go on
    /// after a `-`, and only its ids and sampled flag are read (3.2.4).
    static func parseTraceparent(_ value: String) -> Result<String, Flaw> {
        let length = value.utf8.count
        let bytes = Array(value.utf8.prefix(56))
        guard length >= 55, bytes[2] == dash, bytes[35] == dash, bytes[52] == dash,
            let version = hexByte(bytes[0], bytes[1]), let flags = hexByte(bytes[53], bytes[54]),
            bytes[3..<35].allSatisfy(isLowerHex), bytes[36..<52].allSatisfy(isLowerHex),
            version == 0 ? length == 55 : (length == 55 || bytes[55] == dash)
        else { return .failure(.traceparentMalformed) }
        guard version != 0xff else { return .failure(.traceparentVersion) }
        guard bytes[3..<35].contains(where: { $0 != zero }), bytes[36..<52].contains(where: { $0 != zero }) else {
            return .failure(.traceparentZeroID)
        }
        if version == 0 { return .success(value) }
        let sampled = flags & 0x01 == 1 ? "01" : "00"
        return .success("00-" + String(decoding: bytes[3..<52], as: UTF8.self) + "-" + sampled)
    }

    // MARK: tracestate

    /// The `tracestate` fields as one list (W3C Trace Context 3.3): members `key=value`
    /// separated by commas with optional spaces or tabs, empty members ignored, at most 32
    /// members and 512 bytes, no key twice. nil when none was sent or every member is empty.
    static func parseTracestate(_ values: [String]) -> Result<String?, Flaw> {
        guard !values.isEmpty else { return .success(nil) }
        var total = 0
        for value in values {
            total += value.utf8.count
            guard total <= maxTracestateBytes else { return .failure(.tracestateTooLarge) }
        }
        var members: [String] = []
        var keys: [Substring.UTF8View] = []
        for value in values {
            for member in value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                let trimmed = trimmingWhitespace(member)
                if trimmed.isEmpty { continue }
                guard members.count < maxTracestateMembers else { return .failure(.tracestateTooLarge) }
                guard let equals = trimmed.firstIndex(of: UInt8(ascii: "=")),
                    isKey(trimmed[..<equals]), isValue(trimmed[trimmed.index(after: equals)...])
                else { return .failure(.tracestateMalformed) }
                let key = trimmed[..<equals]
                guard !keys.contains(where: { $0.elementsEqual(key) }) else {
                    return .failure(.tracestateRepeatedKey)
                }
                keys.append(key)
                members.append(String(decoding: trimmed, as: UTF8.self))
            }
        }
        guard !members.isEmpty else { return .success(nil) }
        return .success(members.joined(separator: ","))
    }

    /// `simple-key` (lowercase letter, then up to 255 of `a-z0-9_-*/`) or `tenant@system`
    /// (tenant: a lowercase letter or digit, then up to 240; system: a lowercase letter, then up
    /// to 13).
    static func isKey(_ key: Substring.UTF8View) -> Bool {
        guard let at = key.firstIndex(of: UInt8(ascii: "@")) else {
            guard let first = key.first, isLowerAlpha(first), key.count <= 256 else { return false }
            return key.dropFirst().allSatisfy(isKeyByte)
        }
        let tenant = key[..<at]
        let system = key[key.index(after: at)...]
        guard let tenantFirst = tenant.first, isLowerAlpha(tenantFirst) || isDigit(tenantFirst), tenant.count <= 241,
            tenant.dropFirst().allSatisfy(isKeyByte),
            let systemFirst = system.first, isLowerAlpha(systemFirst), system.count <= 14,
            system.dropFirst().allSatisfy(isKeyByte)
        else { return false }
        return true
    }

    /// 1 to 256 printable ASCII bytes but `,` and `=`, spaces allowed except at the end.
    static func isValue(_ value: Substring.UTF8View) -> Bool {
        guard let last = value.last, last != UInt8(ascii: " "), value.count <= 256 else { return false }
        return value.allSatisfy { byte in
            (0x20...0x7e).contains(byte) && byte != UInt8(ascii: ",") && byte != UInt8(ascii: "=")
        }
    }

    private static let dash = UInt8(ascii: "-")
    private static let zero = UInt8(ascii: "0")

    private static func trimmingWhitespace(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }), let end = bytes.lastIndex(where: { !isSpace($0) })
        else { return bytes[bytes.endIndex...] }
        return bytes[start...end]
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    private static func isLowerAlpha(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        isLowerAlpha(byte) || isDigit(byte) || "_-*/".utf8.contains(byte)
    }

    /// Two lowercase hex digits as a byte.
    private static func hexByte(_ high: UInt8, _ low: UInt8) -> UInt8? {
        guard isLowerHex(high), isLowerHex(low) else { return nil }
        func nibble(_ byte: UInt8) -> UInt8 { isDigit(byte) ? byte - zero : byte - UInt8(ascii: "a") + 10 }
        return nibble(high) << 4 | nibble(low)
    }
}

extension HTTPField.Name {
    static let tracestate = Self("tracestate")!
}
