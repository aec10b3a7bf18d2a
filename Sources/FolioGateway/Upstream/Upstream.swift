import NIOHTTP1

/// Where the fill pipeline gets lists from: one GET whose final body streams into a sink.
///
/// `UpstreamClient` is the one Folio runs with (AsyncHTTPClient, with the redirect, deadline
/// and size rules of docs/API.md); the pipeline's unit tests use one that answers from memory.
public protocol Upstream: Sendable {
    /// GETs `url` and streams the final answer's body into the sink `makeSink` returns for its
    /// head. Errors thrown by `makeSink` or the sink are rethrown unchanged.
    func get<Sink: UpstreamBodySink>(
        _ url: String, headers: HTTPHeaders, makeSink: (UpstreamHead) throws -> Sink
    ) async throws -> (UpstreamHead, Sink)
}

extension UpstreamClient: Upstream {}
