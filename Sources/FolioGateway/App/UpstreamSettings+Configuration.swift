import FolioConfiguration

extension UpstreamSettings {
    /// Upstream client settings derived from the config's limits.
    public init(_ configuration: Configuration) {
        let limits = configuration.limits
        self.init(
            connectTimeout: limits.connectTimeout,
            responseTimeout: limits.upstreamTimeout,
            maxBodyBytes: limits.maxUpstreamBytes
        )
    }
}
