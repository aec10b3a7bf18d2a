import Yams

extension ConfigurationLoader {
    /// One positioned problem for a YAML error that stopped composing.
    static func syntaxProblem(_ error: any Error, yaml: String, file: String) -> ConfigurationProblem {
        func problem(_ mark: Position, _ message: String) -> ConfigurationProblem {
            ConfigurationProblem(file: file, line: mark.line, column: mark.column, path: "", message: message)
        }
        let start = Position(line: 1, column: 1)
        guard let yamlError = error as? YamlError else {
            return problem(start, "YAML error: \(error)")
        }
        switch yamlError {
        case .scanner(let context, let text, let mark, _),
            .parser(let context, let text, let mark, _),
            .composer(let context, let text, let mark, _):
            let during = context.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? ""
            let tab = isTab(at: Position(mark), in: yaml) ? "; YAML does not allow tabs for indentation" : ""
            return problem(Position(mark), "YAML syntax error: \(text)\(during)\(tab)")
        case .reader(let text, let offset, _, _):
            return problem(mark(ofCharacterOffset: offset ?? 0, in: yaml), "YAML error: \(text)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? ""
            if let second = secondOccurrence(of: key, after: context.mark, in: yaml) {
                return problem(second, "duplicate key '\(key)' (first at line \(context.mark.line))")
            }
            return problem(Position(context.mark), "duplicate key '\(key)' in this mapping")
        default:
            return problem(start, "YAML error: \(yamlError)")
        }
    }

    /// Yams reports a duplicate at its first occurrence; the second is the one to fix. In block
    /// style it is the next line at the same indentation starting with the key, before the
    /// mapping ends (a line indented less). Flow mappings fall back to the first occurrence.
    static func secondOccurrence(of key: String, after first: Mark, in yaml: String) -> Position? {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        guard first.line < lines.count else { return nil }
        let spellings = [key, "'\(key)'", "\"\(key)\""]
        for index in first.line..<lines.count {
            let line = lines[index].unicodeScalars
            guard let start = line.firstIndex(where: { $0 != " " }) else { continue }
            if line[start] == "#" { continue }
            let column = line.distance(from: line.startIndex, to: start) + 1
            if column < first.column { return nil }
            guard column == first.column else { continue }
            let rest = Substring(line[start...])
            for spelling in spellings where rest.hasPrefix(spelling) {
                if rest.dropFirst(spelling.count).drop(while: { $0 == " " }).hasPrefix(":") {
                    return Position(line: index + 1, column: column)
                }
            }
        }
        return nil
    }

    /// Whether the scalar at `position` is a tab: the most common cause of "cannot start any
    /// token", worth naming.
    static func isTab(at position: Position, in yaml: String) -> Bool {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        guard position.line >= 1, position.line <= lines.count else { return false }
        let scalars = Array(lines[position.line - 1].unicodeScalars)
        return position.column >= 1 && position.column <= scalars.count && scalars[position.column - 1] == "\t"
    }

    /// Line and scalar column of a character offset (what Yams gives for reader errors).
    static func mark(ofCharacterOffset offset: Int, in yaml: String) -> Position {
        var line = 1
        var column = 1
        for character in yaml.prefix(offset) {
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 1
            } else {
                column += character.unicodeScalars.count
            }
        }
        return Position(line: line, column: column)
    }

    /// A 1-based line and scalar column (Yams' `Mark` cannot be made outside Yams).
    struct Position {
        var line: Int
        var column: Int

        init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        init(_ mark: Mark) {
            self.init(line: mark.line, column: mark.column)
        }
    }
}
