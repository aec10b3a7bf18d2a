import FolioRedisStore
import Foundation

/// An upstream's error answer in a fill failure record, and back (docs/SHARED-STORE.md, "One
/// fill for all replicas": the waiters answer with it as the filler did).
extension FillFailure {
    init(_ answer: UpstreamAnswer) {
        self.init(
            detail: "the upstream answered \(answer.status)", status: answer.status,
            headers: answer.headers.map { [$0.name, $0.value] }, body: Data(answer.body))
    }

    /// The upstream's error answer, when that was the failure.
    var answer: UpstreamAnswer? {
        guard let status else { return nil }
        let pairs = (headers ?? []).compactMap { $0.count == 2 ? (name: $0[0], value: $0[1]) : nil }
        return UpstreamAnswer(status: status, headers: pairs, body: Array(body ?? Data()))
    }
}
