import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one HTTP request and returns the whole answer, whatever its status.
///
/// Every request the client makes goes through this, so an app can add headers (auth, tracing),
/// log, or answer from a fixture in tests. Implementations must stop the request when the calling
/// task is cancelled and then throw `CancellationError` (or `URLError(.cancelled)`): the paged list
/// relies on that to drop pages scrolled past. The list cancels while it holds its lock, so a
/// cancellation handler must not call back into the list (`count`, its subscript).
public protocol Transport: Sendable {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// The default transport: a `URLSession` data task, cancelled when the calling task is.
///
/// Written over `dataTask(with:completionHandler:)` rather than `data(for:)`, so cancelling the
/// task cancels the session task on every platform (swift-corelibs-foundation included).
public struct URLSessionTransport: Transport {
    public let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        let cancelled = (error as? URLError)?.code == .cancelled
                        continuation.resume(throwing: cancelled ? CancellationError() : error)
                    } else if let response = response as? HTTPURLResponse {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                box.start(task)
            }
        } onCancel: {
            box.cancel()
        }
    }
}
