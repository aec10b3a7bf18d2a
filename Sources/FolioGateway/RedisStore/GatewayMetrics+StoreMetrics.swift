import FolioRedisStore

/// The shared store counts its failed calls in `folio_store_errors_total{operation}`.
extension GatewayMetrics: StoreMetrics {}
