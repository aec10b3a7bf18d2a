/// Where the shared store counts what it does (docs/OPERATIONS.md, "Metrics"): the gateway's
/// metrics implement it.
public protocol StoreMetrics: Sendable {
    /// A call to Redis failed, or what it read failed its check (`folio_store_errors_total`);
    /// `node` is the server that failed it, when one is known (`folio_store_node_errors_total`).
    func storeFailed(_ operation: StoreOperation, node: String?)
}
