/// What a call to the shared store was doing when it failed (`folio_store_errors_total`).
public enum StoreOperation: String, Sendable, CaseIterable {
    /// Looking up or loading a snapshot.
    case read
    /// Storing a snapshot or its new freshness.
    case write
    /// Taking, checking or releasing a fill lock.
    case lock
    /// Dropping a route's snapshots (purge, unsafe method).
    case drop
    /// A snapshot whose bytes do not give its token (torn, evicted part, tampered): a miss.
    case verify
    /// The events subscription (drops and finished fills from other replicas).
    case subscribe
    /// The background check that finds Redis back.
    case ping
}
