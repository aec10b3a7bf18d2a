/// One thing wrong with a config file, positioned so an editor can jump to it.
public struct ConfigurationProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file name as given to the loader.
    public let file: String
    /// 1-based.
    public let line: Int
    /// 1-based, in Unicode scalars (what libYAML counts).
    public let column: Int
    /// Key path like `routes[0].cache.ttl`; `""` for problems with the file as a whole
    /// (unreadable, YAML syntax).
    public let path: String
    public let message: String

    public init(file: String, line: Int, column: Int, path: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    /// `FILE:LINE:COL: key.path: message`, or `FILE:LINE:COL: message` when there is no key
    /// path, one line (what `folio validate` prints): a line break or other control character
    /// that a key or value of the file brought in is written as an escape (`\n`, `\u{1B}`).
    public var description: String {
        let text =
            path.isEmpty ? "\(file):\(line):\(column): \(message)" : "\(file):\(line):\(column): \(path): \(message)"
        return Self.oneLine(text)
    }

    /// `text` with its control characters escaped (C0 and C1 controls, line and paragraph
    /// separators, format characters such as bidirectional overrides), so it stays one line
    /// and reads as written.
    public static func oneLine(_ text: String) -> String {
        func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator, .format: true
            default: false
            }
        }
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where isEscaped(scalar):
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

/// A config that cannot be used, with every problem found (never only the first).
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// In file order; at least one.
    public let problems: [ConfigurationProblem]

    public init(problems: [ConfigurationProblem]) {
        self.problems = problems
    }

    /// One line per problem.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
