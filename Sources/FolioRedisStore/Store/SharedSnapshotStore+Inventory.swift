import FolioEngine

extension SharedSnapshotStore {
    /// The snapshots this replica holds in its local layer (the admin page's `GET /state`);
    /// what only Redis holds is not listed.
    public func inventory() async -> [HeldSnapshot] {
        heldLocally()
    }

    /// From a synchronous context, so the memory store's own `inventory` is called, not the
    /// protocol's empty default (an `async` context prefers the `async` overload).
    private func heldLocally() -> [HeldSnapshot] {
        local.inventory()
    }

    /// Whether Redis answered the last command (a background ping finds it back when not).
    public var isReachable: Bool { health.isAvailable }
}
