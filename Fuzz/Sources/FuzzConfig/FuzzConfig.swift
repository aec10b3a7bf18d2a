import FolioConfiguration

/// libFuzzer entry: the config loader on arbitrary YAML text.
///
/// Checks, beyond "never crashes": a rejected file reports at least one problem, each with a
/// 1-based position inside the text, and an accepted one has at least one route.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // libYAML also breaks lines at CR, NEL, LS and PS: count every one as a possible line.
    let lineCount = 1 + text.unicodeScalars.filter { "\n\r\u{85}\u{2028}\u{2029}".unicodeScalars.contains($0) }.count
    do {
        let configuration = try ConfigurationLoader.parse(yaml: text, file: "fuzz.yaml", environment: [:])
        guard !configuration.routes.isEmpty else { fatalError("accepted a config without routes") }
    } catch {
        guard !error.problems.isEmpty else { fatalError("rejected without a problem") }
        for problem in error.problems where problem.line < 1 || problem.column < 1 || problem.line > lineCount + 1 {
            fatalError("problem outside the text (\(lineCount) lines): \(problem)")
        }
    }
    return 0
}
