import FolioConfiguration
import Foundation
import Testing

/// Config files for the tests of every target that reads one.
public enum ConfigFixture {
    /// The smallest valid file.
    public static let minimal = """
        routes:
          - name: objects
            path: /objects
            upstream: http://legacy:3000/api/objects
        """

    /// Line and Unicode-scalar column (1-based) of the `occurrence`-th `needle` in `text`,
    /// computed independently of Yams as the reference for reported positions.
    public static func position(of needle: String, in text: String, occurrence: Int = 1) -> (line: Int, column: Int) {
        var seen = 0
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line[...]
            var consumed = 0
            while let range = rest.range(of: needle) {
                seen += 1
                let before = rest[..<range.lowerBound].unicodeScalars.count
                if seen == occurrence { return (index + 1, consumed + before + 1) }
                consumed += before + rest[range].unicodeScalars.count
                rest = rest[range.upperBound...]
            }
        }
        Issue.record("'\(needle)' (#\(occurrence)) not found")
        return (0, 0)
    }

    /// The problems of `yaml`, or none when it loads.
    public static func problems(_ yaml: String, environment: [String: String] = [:]) -> [ConfigurationProblem] {
        do {
            _ = try ConfigurationLoader.parse(yaml: yaml, file: "test.yaml", environment: environment)
            return []
        } catch {
            return error.problems
        }
    }

    /// The package root, found from this file's path.
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }
}
