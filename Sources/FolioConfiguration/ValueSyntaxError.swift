/// A configuration value that is not well formed (a URL, an address, a route pattern...).
///
/// The loader turns it into a `ConfigurationProblem` with the value's position; callers that build
/// values in code (tests, the demo) get the same message.
public struct ValueSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, phrased for the person who wrote the value.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
