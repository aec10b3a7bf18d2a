extension Gateway {
    /// Whether `peer` is one of `server.trustedProxies`, whose forwarding headers are kept.
    func isTrusted(_ peer: String?) -> Bool {
        guard let peer else { return false }
        return configuration.server.trustedProxies.contains { $0.contains(peer) }
    }
}
