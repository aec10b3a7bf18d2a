/// Carries a value that is not `Sendable` to the one task that uses it (and back).
///
/// Sound only while exactly one task at a time touches `value`: a body sink is used by the
/// `Deadline.run` child and read by the caller after `run` has awaited that child; a peeked
/// request-body iterator is used only by AsyncHTTPClient's upload once handed over.
final class Handover<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
