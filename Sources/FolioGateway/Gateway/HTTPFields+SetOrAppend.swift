import HTTPTypes

extension HTTPFields {
    /// Sets `name` to `value`: appended when absent (one search, not two), replacing the field
    /// when present.
    static func setOrAppend(_ fields: inout HTTPFields, _ name: HTTPField.Name, _ value: String) {
        guard fields.contains(where: { $0.name == name }) else {
            fields.append(HTTPField(name: name, value: value))
            return
        }
        fields[name] = value
    }
}
