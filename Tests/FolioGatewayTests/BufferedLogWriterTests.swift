import Foundation
import Synchronization
import Testing

@testable import FolioGateway

/// The access log's writer through a real pipe: whole lines in order, and a reader that stops
/// reading never blocks the writers or grows the buffer past its bound.
@Suite("Buffered log writer")
struct BufferedLogWriterTests {
    /// A pipe whose read end is drained into memory on a thread of its own until EOF.
    final class Drain: Sendable {
        let pipe = Pipe()
        private let collected = Mutex<[UInt8]>([])
        private let done = DispatchSemaphore(value: 0)

        var descriptor: Int32 { pipe.fileHandleForWriting.fileDescriptor }

        func start() {
            let reading = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = reading.availableData
                    if chunk.isEmpty { break }
                    collected.withLock { $0.append(contentsOf: chunk) }
                }
                done.signal()
            }
        }

        /// Closes the write end and returns everything read.
        func finish() -> String {
            try? pipe.fileHandleForWriting.close()
            done.wait()
            return String(decoding: collected.withLock { $0 }, as: UTF8.self)
        }
    }

    /// The writer's thread shows as `folio-log` in `top -H`, `perf` and `/proc`.
    @Test(.timeLimit(.minutes(1)))
    func theWritersThreadIsNamed() async throws {
        let drain = Drain()
        drain.start()
        let writer = BufferedLogWriter(descriptor: drain.descriptor)
        writer.append("{}\n")
        func names() -> [String] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        let deadline = ContinuousClock.now + .seconds(20)
        while !names().contains("folio-log"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(names().contains("folio-log"), "\(names())")
        writer.finish()
        _ = drain.finish()
    }

    @Test(.timeLimit(.minutes(1)))
    func concurrentLinesArriveWholeAndInOrder() async throws {
        let drain = Drain()
        drain.start()
        let writer = BufferedLogWriter(descriptor: drain.descriptor)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for line in 0..<2_500 { writer.append("{\"task\":\(task),\"line\":\(line)}\n") }
                }
            }
        }
        writer.finish()
        let lines = drain.finish().split(separator: "\n")
        #expect(lines.count == 10_000)
        for task in 0..<4 {
            let mine = lines.filter { $0.hasPrefix("{\"task\":\(task),") }.map(String.init)
            #expect(mine == (0..<2_500).map { "{\"task\":\(task),\"line\":\($0)}" })
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aReaderThatStopsNeverBlocksWritersAndDropsBeyondTheBound() async throws {
        let drain = Drain()
        let writer = BufferedLogWriter(descriptor: drain.descriptor, maxBuffered: 256 << 10)
        // Nobody reads yet: the pipe (64 KiB) fills and the writer's thread blocks on it. Every
        // append must still return at once (a hang fails this test by its time limit).
        let line = String(repeating: "x", count: 99) + "\n"
        for _ in 0..<20_000 { writer.append(line) }
        drain.start()
        writer.finish()
        let output = drain.finish()
        let lines = output.split(separator: "\n")
        let written = lines.filter { $0.utf8.count == 99 }.count
        // The thread may write a notice of its own before `finish` writes the last one: each
        // notice counts the lines dropped since the one before.
        let notices = lines.filter { $0.contains("log lines dropped") }
        try #require(!notices.isEmpty)
        let dropped = try notices.reduce(0) { sum, notice in
            sum + (try #require(Int(notice.split(separator: ":").last!.dropLast())))
        }
        // At most the bound waiting, plus one bound's worth the blocked thread had taken.
        #expect(written * 100 <= 2 * (256 << 10), "bounded: \(written) lines")
        #expect(written + dropped == 20_000)
    }
}
