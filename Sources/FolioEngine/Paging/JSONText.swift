/// JSON string writing for the text Folio itself puts into bodies (links, tokens, `itemsKey`).
public enum JSONText {
    /// Appends `text` as a quoted JSON string: `"` and `\` escaped, control characters as
    /// `\n`-style or `\u00XX` escapes, everything else as UTF-8 unchanged.
    public static func appendString(_ text: String, to output: inout [UInt8]) {
        writeString(text, to: &output)
    }

    static func writeString(_ text: String, to sink: inout some ByteSink) {
        var text = text
        text.withUTF8 { typed in
            let utf8 = UnsafeRawBufferPointer(typed)
            sink.write(UInt8(ascii: "\""))
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                sink.write(UnsafeRawBufferPointer(rebasing: utf8[runStart..<index]))
                writeEscape(byte, to: &sink)
                runStart = index + 1
            }
            sink.write(UnsafeRawBufferPointer(rebasing: utf8[runStart...]))
            sink.write(UInt8(ascii: "\""))
        }
    }

    /// A link as a JSON string, or `null` where the rel is absent.
    static func writeLink(_ url: String?, to sink: inout some ByteSink) {
        if let url { writeString(url, to: &sink) } else { sink.write("null") }
    }

    private static func writeEscape(_ byte: UInt8, to sink: inout some ByteSink) {
        sink.write(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): sink.write(byte)
        case 0x08: sink.write(UInt8(ascii: "b"))
        case 0x0C: sink.write(UInt8(ascii: "f"))
        case 0x0A: sink.write(UInt8(ascii: "n"))
        case 0x0D: sink.write(UInt8(ascii: "r"))
        case 0x09: sink.write(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            sink.write("u00")
            sink.write(hex.utf8Start[Int(byte >> 4)])
            sink.write(hex.utf8Start[Int(byte & 0xF)])
        }
    }
}
