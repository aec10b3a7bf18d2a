import FolioEngine
import FolioRedisStore

/// The gateway's fills through the shared store's lock (docs/SHARED-STORE.md, "One fill for
/// all replicas"): `FillCoalescer` runs each fill through it.
extension SharedSnapshotStore: FillCoordination {
    func coordinate(
        _ key: CacheKey, timeout: Duration, fill: @escaping @Sendable () async throws -> FillResult
    ) async throws -> CoordinatedFill {
        switch try await fillOnce(key, timeout: timeout, fill: fill) {
        case .filled(let result):
            return .filled(result)
        case .shared(let snapshot, let waited):
            return .shared(snapshot, waited: waited)
        case .failedElsewhere(let failure):
            // The upstream's own error answer is passed back here as on the filler.
            if let answer = failure.answer { return .filled(.upstream(answer)) }
            throw FolioError.upstreamFailed("Another replica's fill of this list failed: \(failure.detail)")
        }
    }
}

extension FillResult: FillOutcome {
    /// An upstream error answer is the waiters' answer too; after an uncacheable or unstored
    /// list, nothing is shared and every waiter fills for itself, at once.
    var end: FillEnd {
        switch self {
        case .upstream(let answer): .failed(FillFailure(answer))
        case .uncacheable, .unstored: .unshared
        case .stored, .revalidated, .shared: .shareable
        }
    }

    static func failure(_ error: any Error) -> FillFailure {
        FillFailure(detail: FolioError.mapping(error).detail)
    }
}
