import FolioConfiguration

extension [CIDR] {
    /// Whether `peer` (an IP address's text) is in one of these networks.
    func trusts(_ peer: String?) -> Bool {
        guard let peer else { return false }
        return contains { $0.contains(peer) }
    }
}
