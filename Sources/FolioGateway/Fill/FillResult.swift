import FolioEngine

/// What a fill produced.
enum FillResult: Sendable {
    /// A list that was stored as the key's newest snapshot (or renewed the current one).
    case stored(Snapshot)
    /// The current snapshot, confirmed unchanged by a 304: with new freshness (`renews`), or,
    /// when the 304 forbids storing, as it was, for the requests of this fill only (nothing is
    /// installed).
    case revalidated(Snapshot, renews: Bool)
    /// A list that must not be stored or shared: the upstream's answer forbids it (`no-store`,
    /// `private`, `Set-Cookie`, `Vary` on credentials); only its leader uses it.
    case uncacheable(Snapshot)
    /// A storable list that was not stored: a drop or a reload that changed its route came
    /// while it was fetched, or the store refused it (larger than the whole cache). It is
    /// nobody's private answer: the requests that joined the fill are served it.
    case unstored(Snapshot)
    /// The upstream answered an error status: passed through to the client.
    case upstream(UpstreamAnswer)
    /// Another replica's list, loaded from the shared store instead of fetching (`waited`:
    /// after waiting for that replica's fill).
    case shared(Snapshot, waited: Bool)
}

/// A non-2xx upstream answer, passed through with its end-to-end headers and decoded body.
struct UpstreamAnswer: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
}

extension UpstreamAnswer {
    /// An upstream's non-2xx answer as passed back: its end-to-end headers and (capped) body.
    init(head: UpstreamHead, body: [UInt8]) {
        let headers = ProxyHeaders.clientResponseHeaders(from: head.headers)
        self.init(status: head.status, headers: headers.map { ($0.name, $0.value) }, body: body)
    }
}
