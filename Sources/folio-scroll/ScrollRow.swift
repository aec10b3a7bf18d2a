/// Any JSON object shown by one of its usual label members (`name`, `title`, `id`).
struct ScrollRow: Decodable, Sendable {
    var label: String

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        guard let object = try? decoder.container(keyedBy: Key.self) else {
            label = "(not an object)"
            return
        }
        for name in ["name", "title", "id"] {
            let key = Key(stringValue: name)
            if let text = try? object.decode(String.self, forKey: key) {
                label = text
                return
            }
            if let number = try? object.decode(Int.self, forKey: key) {
                label = "#\(number)"
                return
            }
        }
        label = "(object)"
    }
}
