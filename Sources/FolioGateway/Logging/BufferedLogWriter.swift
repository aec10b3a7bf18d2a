import FolioEngine
import Foundation
import Synchronization

/// Log lines written to a file descriptor by a thread of their own: a request appends its
/// access-log line to a buffer (a lock and a copy) and never waits for the descriptor, so a slow
/// reader of stdout (a terminal, a pipe, a container runtime's log driver) cannot stall an
/// event loop. The thread writes what piled up every 20 ms, or at once past 64 KiB.
///
/// At most `maxBuffered` bytes wait; lines beyond that are dropped and counted, and the next
/// write says how many (a reader that stopped must not grow the heap without bound).
/// `flush()` writes everything now: the executable calls it before it exits.
public final class BufferedLogWriter: Sendable {
    /// stdout, shared by every `JSONLogHandler` writing there.
    public static let standardOutput = BufferedLogWriter(descriptor: STDOUT_FILENO)

    static let flushInterval = 0.02
    static let flushBytes = 64 << 10

    private struct State {
        var buffer: [UInt8] = []
        /// The buffer last written, emptied, to queue into next: its memory is reused, not
        /// allocated (and faulted in) again for every write.
        var spare: [UInt8] = []
        var dropped = 0
        var started = false
        var finished = false
    }

    let descriptor: Int32
    let maxBuffered: Int
    private let state = Mutex(State())
    /// Held while writing to the descriptor, so the thread and `flush()` never interleave.
    private let writing = Mutex(())
    private let wake = DispatchSemaphore(value: 0)

    init(descriptor: Int32, maxBuffered: Int = 8 << 20) {
        self.descriptor = descriptor
        self.maxBuffered = maxBuffered
    }

    /// Queues `line` (which ends in a newline); never blocks on the descriptor.
    public func append(_ line: String) {
        var line = line
        line.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Queues a line's UTF-8 bytes (ending in a newline); never blocks on the descriptor.
    func append(bytes line: UnsafeRawBufferPointer) {
        let (start, signal) = state.withLock { state -> (Bool, Bool) in
            if state.finished || state.buffer.count + line.count > maxBuffered {
                state.dropped += 1
            } else {
                state.buffer.append(contentsOf: line)
            }
            let start = !state.started
            state.started = true
            return (start, state.buffer.count >= Self.flushBytes)
        }
        if start { startThread() }
        if signal { wake.signal() }
    }

    /// Writes everything queued so far, on the calling thread.
    public func flush() {
        writing.withLock { _ in
            var bytes: [UInt8] = []
            let dropped = state.withLock { state in
                // `bytes` takes the queued lines; the spare becomes the queue.
                swap(&bytes, &state.spare)
                swap(&bytes, &state.buffer)
                defer { state.dropped = 0 }
                return state.dropped
            }
            if dropped > 0 {
                write(Array("{\"level\":\"warning\",\"message\":\"log lines dropped\",\"dropped\":\(dropped)}\n".utf8))
            }
            if !bytes.isEmpty { write(bytes) }
            bytes.removeAll(keepingCapacity: true)
            state.withLock { state in
                if state.spare.capacity < bytes.capacity { swap(&state.spare, &bytes) }
            }
        }
    }

    /// Writes what is queued and stops the thread; later lines are dropped (tests' writers).
    func finish() {
        state.withLock { state in
            state.finished = true
        }
        wake.signal()
        flush()
    }

    private func startThread() {
        let thread = Thread { [self] in
            ThreadName.setCurrent("folio-log")
            while !state.withLock({ $0.finished }) {
                _ = wake.wait(timeout: .now() + Self.flushInterval)
                flush()
            }
        }
        thread.start()
    }

    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { writeAll($0, to: descriptor) }
    }
}
