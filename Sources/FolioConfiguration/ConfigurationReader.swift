import Yams

/// Where a value sits: its key path and the position problems about it point at.
struct ConfigLocation {
    var path: String
    var line: Int
    var column: Int

    init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    init(path: String, mark: Mark?) {
        self.init(path: path, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}

/// A YAML value and where problems about it are reported (its key, or itself in a sequence).
struct ConfigEntry {
    let node: Node
    let location: ConfigLocation
}

/// The keys of one YAML mapping. Reading a key (present or not) makes it a known key of this
/// mapping: the keys a file has and no reader asked for are the unknown ones, reported once
/// everything was read (`ConfigurationReader.reportUnknownKeys`). So each key is written once,
/// where it is read.
final class ConfigFields {
    /// The mapping's own path; line and column of its first key (where missing keys point).
    let location: ConfigLocation
    let entries: [String: ConfigEntry]
    /// Better messages for known mistakes, by key.
    let hints: [String: String]
    /// The keys read, in the order they were first read.
    private(set) var asked: [String] = []

    init(location: ConfigLocation, entries: [String: ConfigEntry], hints: [String: String]) {
        self.location = location
        self.entries = entries
        self.hints = hints
    }

    subscript(key: String) -> ConfigEntry? {
        if !asked.contains(key) { asked.append(key) }
        return entries[key]
    }

    /// Where a missing `key` is reported: the first key of this mapping.
    func missing(_ key: String) -> ConfigLocation {
        ConfigLocation(path: location.child(key), line: location.line, column: location.column)
    }
}

/// Walks the composed YAML, turning values into typed settings and collecting every problem.
///
/// Yams' `Codable` decoding ignores unknown keys and stops at the first error, and its
/// resolver reads `yes`/`no` as booleans; walking `Node`s keeps positions and applies the
/// grammar of docs/CONFIG.md exactly. Getters return `nil` after reporting, so callers keep the
/// default and go on.
struct ConfigurationReader {
    let file: String
    private(set) var problems: [ConfigurationProblem] = []
    /// Where `cache.maxBytes: auto` looks for the cgroup tree (`/`; `FOLIO_CGROUP_ROOT` moves
    /// it, for tests and unusual mounts).
    var cgroupRoot = "/"
    /// Where `cache.store` was read: a Redis store without a URL is reported there.
    var storeLocation: ConfigLocation?
    /// Whether a Redis URL was given but refused (reported at its own position): a store that
    /// lacks a URL because its URL is malformed is not reported twice.
    var redisURLRefused = false
    /// Where `cache.redis.url` and `cache.redis.cluster` were read: naming both is reported.
    var redisURLLocation: ConfigLocation?
    var redisClusterLocation: ConfigLocation?
    var redisSentinelLocation: ConfigLocation?
    /// Every mapping read so far, for `reportUnknownKeys`.
    private(set) var mappings: [ConfigFields] = []

    init(file: String) {
        self.file = file
    }

    mutating func report(_ message: String, at location: ConfigLocation) {
        problems.append(
            ConfigurationProblem(
                file: file, line: location.line, column: location.column, path: location.path, message: message))
    }

    // MARK: Structure

    /// The mapping's keys; keys that are not scalars are reported at once, unknown ones by
    /// `reportUnknownKeys`. `hints` gives a better message for known mistakes.
    mutating func fields(_ entry: ConfigEntry, hints: [String: String] = [:]) -> ConfigFields? {
        guard let mapping = entry.node.mapping else {
            report("expected a mapping, got \(describe(entry.node))", at: entry.location)
            return nil
        }
        let firstMark = mapping.first?.key.mark ?? mapping.mark ?? entry.node.mark
        var entries: [String: ConfigEntry] = [:]
        for (keyNode, value) in mapping {
            let keyLocation = ConfigLocation(path: entry.location.path, mark: keyNode.mark)
            guard let key = keyNode.scalar?.string else {
                report("keys must be plain text, got \(describe(keyNode))", at: keyLocation)
                continue
            }
            let location = ConfigLocation(path: entry.location.child(key), mark: keyNode.mark)
            entries[key] = ConfigEntry(node: value, location: location)
        }
        let fields = ConfigFields(
            location: ConfigLocation(path: entry.location.path, mark: firstMark), entries: entries, hints: hints)
        mappings.append(fields)
        return fields
    }

    /// Reports every key of a mapping read so far that its reader never asked for, with a
    /// suggestion among the keys it did ask for. Called once the whole file was read.
    mutating func reportUnknownKeys() {
        for fields in mappings {
            let known = fields.asked
            for (key, entry) in fields.entries where !known.contains(key) {
                if let hint = fields.hints[key] {
                    report("unknown key '\(key)' (\(hint))", at: entry.location)
                } else if let suggestion = ConfigurationText.suggestion(for: key, among: known) {
                    report("unknown key '\(key)' (did you mean '\(suggestion)'?)", at: entry.location)
                } else {
                    report("unknown key '\(key)' (known here: \(known.joined(separator: ", ")))", at: entry.location)
                }
            }
        }
    }

    /// Every key some reader asked for, by the path of its mapping (`routes[0].upstreamPaging`):
    /// what the file may contain, for documentation checks.
    var knownKeys: [String: [String]] {
        Dictionary(mappings.map { ($0.location.path, $0.asked) }, uniquingKeysWith: { $0 + $1 })
    }

    /// The elements of a sequence, each located at itself with an `[i]` path.
    mutating func elements(_ entry: ConfigEntry) -> [ConfigEntry]? {
        guard let sequence = entry.node.sequence else {
            report("expected a list, got \(describe(entry.node))", at: entry.location)
            return nil
        }
        return sequence.enumerated().map { index, node in
            ConfigEntry(node: node, location: ConfigLocation(path: "\(entry.location.path)[\(index)]", mark: node.mark))
        }
    }

    // MARK: Scalars

    /// Plain `null`, `~` or nothing: YAML's null. Quoted text never is.
    func isNull(_ node: Node) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// Any non-null scalar, as written (`name: 2024` is the text "2024").
    mutating func string(_ entry: ConfigEntry) -> String? {
        guard let scalar = entry.node.scalar, !isNull(entry.node) else {
            report("expected a string, got \(describe(entry.node))", at: entry.location)
            return nil
        }
        return scalar.string
    }

    /// Like `string`, but `null` is a value: `.some(nil)`.
    mutating func nullableString(_ entry: ConfigEntry) -> String?? {
        if isNull(entry.node) { return .some(nil) }
        return string(entry).map { .some($0) }
    }

    /// A plain decimal integer (quoted numbers are strings in YAML).
    mutating func int(_ entry: ConfigEntry) -> Int? {
        guard let scalar = entry.node.scalar, scalar.style == .plain, !isNull(entry.node) else {
            report("expected an integer, got \(describe(entry.node))", at: entry.location)
            return nil
        }
        var digits = Substring(scalar.string)
        let negative = digits.hasPrefix("-")
        if negative { digits = digits.dropFirst() }
        guard let magnitude = ConfigurationText.decimal(digits) else {
            let isDigits =
                !digits.isEmpty && digits.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            report(
                isDigits
                    ? "out of range: at most 18 digits, got '\(scalar.string)'"
                    : "expected an integer, got '\(scalar.string)'",
                at: entry.location)
            return nil
        }
        return Int(negative ? -magnitude : magnitude)
    }

    /// Plain `true` or `false` only: YAML 1.1's `yes`/`no`/`on`/`off` are refused.
    mutating func bool(_ entry: ConfigEntry) -> Bool? {
        if let scalar = entry.node.scalar, scalar.style == .plain {
            if scalar.string == "true" { return true }
            if scalar.string == "false" { return false }
        }
        report("expected true or false, got \(describe(entry.node))", at: entry.location)
        return nil
    }

    mutating func duration(_ entry: ConfigEntry) -> Duration? {
        guard let text = scalarText(entry, expected: "a duration like 30s") else { return nil }
        return value(ConfigurationText.duration(text), at: entry.location)
    }

    mutating func size(_ entry: ConfigEntry) -> Int? {
        guard let text = scalarText(entry, expected: "a size like 256MiB") else { return nil }
        return value(ConfigurationText.size(text), at: entry.location)
    }

    /// One of an enum's raw values, exactly.
    mutating func choice<T: RawRepresentable & CaseIterable>(_ entry: ConfigEntry, _ type: T.Type) -> T?
    where T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        guard let text = scalarText(entry, expected: "one of \(names.joined(separator: ", "))") else { return nil }
        if let value = T(rawValue: text) { return value }
        var message = "expected one of \(names.joined(separator: ", ")); got '\(text)'"
        if let suggestion = ConfigurationText.suggestion(for: text, among: names) {
            message += " (did you mean '\(suggestion)'?)"
        }
        report(message, at: entry.location)
        return nil
    }

    /// A list of strings, each with its own location.
    mutating func strings(_ entry: ConfigEntry) -> [(text: String, location: ConfigLocation)]? {
        guard let items = elements(entry) else { return nil }
        var result: [(text: String, location: ConfigLocation)] = []
        var ok = true
        for item in items {
            if let text = string(item) { result.append((text, item.location)) } else { ok = false }
        }
        return ok ? result : nil
    }

    /// Unwraps a parse result, reporting its message.
    mutating func value<T>(_ result: Result<T, ValueSyntaxError>, at location: ConfigLocation) -> T? {
        switch result {
        case .success(let value): return value
        case .failure(let error):
            report(error.message, at: location)
            return nil
        }
    }

    /// Runs a throwing parser, reporting its message.
    mutating func parsed<T>(at location: ConfigLocation, _ parse: () throws(ValueSyntaxError) -> T) -> T? {
        do {
            return try parse()
        } catch {
            report(error.message, at: location)
            return nil
        }
    }

    private mutating func scalarText(_ entry: ConfigEntry, expected: String) -> String? {
        guard let scalar = entry.node.scalar, !isNull(entry.node) else {
            report("expected \(expected), got \(describe(entry.node))", at: entry.location)
            return nil
        }
        return scalar.string
    }

    /// How a wrong value is named in messages.
    func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar):
            if isNull(node) { return "null" }
            return scalar.style == .plain ? "'\(scalar.string)'" : "the string '\(scalar.string)'"
        }
    }
}
