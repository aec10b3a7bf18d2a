import Foundation
import Synchronization
import Testing

@testable import FolioClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Holds every request at a gate until the test opens it: a fling's requests are still waiting
/// when the list moves on and cancels them, so cancellations are deterministic. A cancelled
/// request never reaches the wrapped transport.
final class GateTransport: Transport {
    private struct State {
        var open = false
        var held: [Int: CheckedContinuation<Void, any Error>] = [:]
        var next = 0
        var passed = 0
    }

    private let inner: any Transport
    private let holds: @Sendable (URLRequest) -> Bool
    private let state = Mutex(State())

    /// - Parameter holds: which requests wait at the gate; the others pass at once.
    init(
        _ inner: any Transport = URLSessionTransport(), holds: @escaping @Sendable (URLRequest) -> Bool = { _ in true }
    ) {
        self.inner = inner
        self.holds = holds
    }

    /// Requests waiting at the gate.
    var held: Int { state.withLock { $0.held.count } }
    /// Requests handed to the wrapped transport.
    var passed: Int { state.withLock { $0.passed } }

    /// Opens (every waiting and later request passes) or closes the gate.
    func setOpen(_ open: Bool) {
        let released = state.withLock { state in
            state.open = open
            defer { if open { state.held = [:] } }
            return open ? Array(state.held.values) : []
        }
        for continuation in released { continuation.resume() }
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        guard holds(request) else { return try await inner.send(request) }
        let id = state.withLock { state in
            state.next += 1
            return state.next
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let passes = state.withLock { state in
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                        return false
                    }
                    if state.open { return true }
                    state.held[id] = continuation
                    return false
                }
                if passes { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.held.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
        state.withLock { $0.passed += 1 }
        return try await inner.send(request)
    }
}

/// Sends every request, but loses the answer of request number `failing` (1-based) once, as a
/// dropped connection would after the server answered: a retry must not append its items twice.
final class FailOnceTransport: Transport {
    private let inner: any Transport
    private let failing: Int
    private let sent = Mutex(0)

    init(failing: Int, _ inner: any Transport = URLSessionTransport()) {
        self.failing = failing
        self.inner = inner
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let number = sent.withLock { count in
            count += 1
            return count
        }
        let answer = try await inner.send(request)
        if number == failing { throw URLError(.networkConnectionLost) }
        return answer
    }
}

/// Fails the requests `failing` picks with a transport error while `failing` says so, and
/// counts every request by its URL's query (`offset=20&…`).
final class FailingTransport: Transport {
    private let inner: any Transport
    private let failing: Mutex<@Sendable (URLRequest) -> Bool>
    private let queries = Mutex<[String]>([])

    init(_ inner: any Transport = URLSessionTransport(), failing: @escaping @Sendable (URLRequest) -> Bool) {
        self.inner = inner
        self.failing = Mutex(failing)
    }

    /// Stops failing.
    func heal() { failing.withLock { $0 = { _ in false } } }

    /// Requests sent.
    var total: Int { queries.withLock { $0.count } }

    /// Requests sent whose query contains `text`.
    func sent(containing text: String) -> Int { queries.withLock { $0.filter { $0.contains(text) }.count } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        queries.withLock { $0.append(request.url?.query ?? "") }
        if failing.withLock({ $0 })(request) { throw URLError(.cannotConnectToHost) }
        return try await inner.send(request)
    }
}

/// Answers every request with one canned body and headers (dialect bodies exactly as docs/API.md, "Dialects"
/// writes them) and records the URLs asked.
final class CannedTransport: Transport {
    let body: String
    let headers: [String: String]
    private let urls = Mutex<[URL]>([])

    init(body: String, headers: [String: String] = [:]) {
        self.body = body
        self.headers = headers
    }

    var requested: [URL] { urls.withLock { $0 } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let url = try #require(request.url)
        urls.withLock { $0.append(url) }
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)!
        return (Data(body.utf8), response)
    }
}

/// Tasks held at one point of a transport until the test lets them go, oldest first.
final class HeldTasks: Sendable {
    private let held = Mutex<[CheckedContinuation<Void, Never>]>([])

    /// Tasks waiting.
    var count: Int { held.withLock { $0.count } }

    /// Waits until released.
    func hold() async {
        await withCheckedContinuation { continuation in held.withLock { $0.append(continuation) } }
    }

    func releaseOne() {
        held.withLock { $0.isEmpty ? nil : $0.removeFirst() }?.resume()
    }

    func releaseAll() {
        for continuation in held.withLock({ held in
            defer { held = [] }
            return held
        }) { continuation.resume() }
    }
}

/// Holds the requests `holds` picks until the test releases them, and ignores cancellation
/// meanwhile, as a request already on the wire does: the list must not count a cancelled
/// request's slot as free before the request has ended.
final class StubbornTransport: Transport {
    private let inner: any Transport
    private let holds: @Sendable (URLRequest) -> Bool
    private let held = HeldTasks()

    init(_ inner: any Transport = URLSessionTransport(), holds: @escaping @Sendable (URLRequest) -> Bool) {
        self.inner = inner
        self.holds = holds
    }

    /// Requests waiting.
    var waiting: Int { held.count }

    /// Lets the oldest waiting request go on (or end, if its task was cancelled meanwhile).
    func releaseOne() {
        held.releaseOne()
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        if holds(request) { await held.hold() }
        try Task.checkCancellation()
        return try await inner.send(request)
    }
}

/// Sends the requests `holds` picks at once but holds their answers until the test releases
/// them: an answer that left the server early arrives late, after newer ones.
final class AnswerGate: Transport {
    private let inner: any Transport
    private let holds: @Sendable (URLRequest) -> Bool
    private let held = HeldTasks()

    init(_ inner: any Transport = URLSessionTransport(), holds: @escaping @Sendable (URLRequest) -> Bool) {
        self.inner = inner
        self.holds = holds
    }

    /// Answers waiting.
    var waiting: Int { held.count }

    func releaseAll() {
        held.releaseAll()
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let answer = try await inner.send(request)
        if holds(request) { await held.hold() }
        return answer
    }
}
