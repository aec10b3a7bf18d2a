import FolioEngine

/// libFuzzer entry: `LinkHeader` on
/// arbitrary field values; a newline in the input separates field lines.
///
/// Checks, beyond "never crashes": `next` is the target of one of the parsed links, and writing
/// the parsed links back out (`<target>; name="value"`, quoted and escaped) parses to the same
/// links, so what the crawler follows does not depend on incidental formatting.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLinkHeader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let values = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let header = LinkHeader(values)
    if let next = header.next, !header.links.contains(where: { $0.target == next }) {
        fatalError("next \(next.debugDescription) is not a parsed target")
    }
    for link in header.links { _ = link.relations }

    let written = header.links.map(write).joined(separator: ", ")
    let reparsed = LinkHeader([written])
    guard reparsed == header else {
        fatalError("round trip differs: \(text.debugDescription) → \(written.debugDescription)")
    }
    return 0
}

func write(_ link: LinkHeader.Link) -> String {
    var out = "<\(link.target)>"
    for parameter in link.parameters {
        // By scalar: `"` followed by a combining mark is one Character, yet still a quote.
        var value = String.UnicodeScalarView()
        for scalar in parameter.value.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { value.append("\\") }
            value.append(scalar)
        }
        out += "; \(parameter.name)=\"\(String(value))\""
    }
    return out
}
