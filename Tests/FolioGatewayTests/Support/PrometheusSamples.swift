/// The samples of a Prometheus text exposition, keyed by metric name and sorted labels, so a
/// test can read values without depending on the order the registry writes them in.
struct PrometheusSamples: Sendable {
    private(set) var values: [String: Double] = [:]
    /// `# TYPE` per metric family.
    private(set) var types: [String: String] = [:]

    init(_ text: String) throws {
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                guard parts.count == 4 else { throw TestFailure("bad TYPE line: \(line)") }
                types[String(parts[2])] = String(parts[3])
                continue
            }
            if line.hasPrefix("#") { continue }
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                throw TestFailure("bad sample line: \(line)")
            }
            let series = line[..<space]
            var name = String(series)
            var labels: [(String, String)] = []
            if let brace = series.firstIndex(of: "{") {
                guard series.last == "}" else { throw TestFailure("bad labels: \(line)") }
                name = String(series[..<brace])
                let body = series[series.index(after: brace)..<series.index(before: series.endIndex)]
                for pair in body.split(separator: ",") {
                    guard let equals = pair.firstIndex(of: "="), pair.last == "\"" else {
                        throw TestFailure("bad label: \(pair)")
                    }
                    let value = pair[pair.index(equals, offsetBy: 2)..<pair.index(before: pair.endIndex)]
                    labels.append((String(pair[..<equals]), String(value)))
                }
            }
            values[Self.key(name, labels)] = value
        }
    }

    /// The sample of `name` with exactly `labels` (any order); nil when absent.
    subscript(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        values[Self.key(name, labels.map { ($0.key, $0.value) })]
    }

    /// The names of every sample (histograms as their `_bucket`, `_sum` and `_count` series).
    var names: Set<String> { Set(values.keys.map { String($0.prefix { $0 != "{" }) }) }

    /// The sample, or 0 when the series does not exist yet.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
        self[name, labels] ?? 0
    }

    private static func key(_ name: String, _ labels: [(String, String)]) -> String {
        name + "{" + labels.sorted { $0.0 < $1.0 }.map { "\($0.0)=\"\($0.1)\"" }.joined(separator: ",") + "}"
    }
}
