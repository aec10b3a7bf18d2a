import HTTPTypes

extension HTTPFields {
    /// Sets `name` to `value`: appended when absent (one search, not two), replacing the field
    /// when present; returns whether a field was replaced.
    @discardableResult
    static func setOrAppend(_ fields: inout HTTPFields, _ name: HTTPField.Name, _ value: String) -> Bool {
        guard fields.contains(where: { $0.name == name }) else {
            fields.append(HTTPField(name: name, value: value))
            return false
        }
        fields[name] = value
        return true
    }
}
