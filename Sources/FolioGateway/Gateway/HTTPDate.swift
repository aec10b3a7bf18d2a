import Foundation
import Synchronization

/// HTTP dates (RFC 9110 5.6.7): read in IMF-fixdate and the two obsolete forms (`Expires`,
/// `Date` of upstream answers), written in IMF-fixdate (`Thu, 26 Nov 2026 03:10:52 GMT`) as
/// the `Date` of the answers Folio writes itself (`KeptAnswerHandler`), like Hummingbird's.
enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
    ]

    /// Parsed once per fill at most, so formatters are made per call (they are not Sendable).
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }

    /// Now, to the second; formatted once a second.
    static func now() -> String {
        let seconds = Int(time(nil))
        return last.withLock { cached in
            if cached.seconds != seconds { cached = (seconds, format(seconds)) }
            return cached.text
        }
    }

    private static let last = Mutex<(seconds: Int, text: String)>((-1, ""))

    static func format(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        // strftime's names are the C locale's (English) unless the process calls setlocale,
        // which Folio never does.
        var text = [CChar](repeating: 0, count: 40)
        let count = strftime(&text, text.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: text[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
