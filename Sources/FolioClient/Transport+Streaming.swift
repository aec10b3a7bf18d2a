import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An answer whose body arrives over time (the watch stream of docs/API.md, "Watching a list").
public struct StreamedAnswer: Sendable {
    public var response: HTTPURLResponse
    /// The body's bytes as they arrive; ends when the server closes the stream, throws when the
    /// connection fails. Stop iterating (or cancel the task) to close it.
    public var body: AsyncThrowingStream<Data, any Error>

    public init(response: HTTPURLResponse, body: AsyncThrowingStream<Data, any Error>) {
        self.response = response
        self.body = body
    }
}

/// A transport that can also keep an answer open and hand its body over as it arrives, which
/// `PagedList.watch()` needs. `URLSessionTransport` is one; a wrapping transport (headers, auth)
/// conforms by forwarding `stream` to the one it wraps.
public protocol StreamingTransport: Transport {
    func stream(_ request: URLRequest) async throws -> StreamedAnswer
}

extension URLSessionTransport: StreamingTransport {
    /// On Apple platforms `URLSession.bytes(for:)`; swift-corelibs-foundation has no bytes API, so
    /// there a data task of a session of its own hands its data over through its delegate.
    public func stream(_ request: URLRequest) async throws -> StreamedAnswer {
        #if canImport(FoundationNetworking)
            try await DelegateStream.open(request, configuration: session.configuration)
        #else
            let (bytes, response) = try await session.bytes(for: request)
            guard let response = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            let body = AsyncThrowingStream<Data, any Error> { continuation in
                let reader = Task {
                    do {
                        var chunk = Data()
                        for try await byte in bytes {
                            chunk.append(byte)
                            // An event ends in a blank line: hand over at line ends, not per byte.
                            if byte == 0x0A {
                                continuation.yield(chunk)
                                chunk = Data()
                            }
                        }
                        if !chunk.isEmpty { continuation.yield(chunk) }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in reader.cancel() }
            }
            return StreamedAnswer(response: response, body: body)
        #endif
    }
}

#if canImport(FoundationNetworking)
    /// A data task whose answer head and data chunks are handed over as they arrive.
    final class DelegateStream: NSObject, URLSessionDataDelegate, Sendable {
        private let head = Mutex<CheckedContinuation<HTTPURLResponse, any Error>?>(nil)
        private let body: AsyncThrowingStream<Data, any Error>.Continuation
        private let stream: AsyncThrowingStream<Data, any Error>

        private override init() {
            (stream, body) = AsyncThrowingStream.makeStream(of: Data.self)
        }

        static func open(_ request: URLRequest, configuration: URLSessionConfiguration) async throws -> StreamedAnswer {
            let delegate = DelegateStream()
            let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
            let task = session.dataTask(with: request)
            delegate.body.onTermination = { _ in
                task.cancel()
                session.invalidateAndCancel()
            }
            let response = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    delegate.head.withLock { $0 = continuation }
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
            return StreamedAnswer(response: response, body: delegate.stream)
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            let waiting = head.withLock { head in
                defer { head = nil }
                return head
            }
            if let response = response as? HTTPURLResponse {
                waiting?.resume(returning: response)
            } else {
                waiting?.resume(throwing: URLError(.badServerResponse))
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            body.yield(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let waiting = head.withLock { head in
                defer { head = nil }
                return head
            }
            let failure: any Error =
                (error as? URLError)?.code == .cancelled ? CancellationError() : error ?? URLError(.badServerResponse)
            waiting?.resume(throwing: failure)
            if let error, (error as? URLError)?.code != .cancelled {
                body.finish(throwing: error)
            } else {
                body.finish()
            }
            session.finishTasksAndInvalidate()
        }
    }
#endif
