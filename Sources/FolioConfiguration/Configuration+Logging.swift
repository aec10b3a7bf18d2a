extension Configuration {
    /// `logging:`.
    public struct LoggingSettings: Sendable, Equatable {
        /// `level`: default `info`; `FOLIO_LOG_LEVEL` overrides the file.
        public var level: LogLevel
        /// `access`: one log line per request. Default `true`.
        public var access: Bool

        public init(level: LogLevel = .info, access: Bool = true) {
            self.level = level
            self.access = access
        }
    }

    /// Log levels, spelled as in the file; the same ladder as swift-log's `Logger.Level`.
    public enum LogLevel: String, Sendable, Equatable, CaseIterable {
        case trace, debug, info, notice, warning, error, critical
    }
}
