/// Writes a section index (docs/API.md, "Section index"): `[{"title","url","count","offset"}, …]`.
///
/// Each `url` selects its section with `selector=value` (`beginsWith` for the alphabetical
/// index, the field's name for `groupBy=FIELD`) and keeps the client's other parameters as
/// sent, except `groupBy`, `metadataOnly`, the paging parameters and an earlier selector.
public enum SectionIndexWriter {
    public static func write(
        sections: [Section], base: String, kept: [QueryParameter], selector: String, snapshot: String
    ) -> [UInt8] {
        var prefix = base + "?"
        for parameter in kept where parameter.key != "groupBy" && parameter.key != selector {
            prefix += URIText.escapingInvalid(parameter.raw)
            prefix += "&"
        }
        prefix += URIText.escapingComponent(selector) + "="
        let suffix = "&snapshot=" + URIText.escapingComponent(snapshot)

        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(64 + sections.count * (prefix.utf8.count + suffix.utf8.count + 48))
        for (index, section) in sections.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"title":"#.utf8)
            if let title = section.title {
                JSONText.appendString(title, to: &out)
            } else {
                out.append(contentsOf: "null".utf8)
            }
            out.append(contentsOf: #","url":"#.utf8)
            if let value = section.value {
                JSONText.appendString(prefix + URIText.escapingComponent(value) + suffix, to: &out)
            } else {
                out.append(contentsOf: "null".utf8)
            }
            out.append(contentsOf: #","count":"#.utf8)
            out.append(contentsOf: String(section.count).utf8)
            out.append(contentsOf: #","offset":"#.utf8)
            out.append(contentsOf: String(section.offset).utf8)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        return out
    }
}
