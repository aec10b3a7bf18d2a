import AsyncHTTPClient
import Foundation
import NIOCore

/// `StreamDiscard URL [RUNS]`: GETs URL with AsyncHTTPClient and discards the body as it streams,
/// printing one line per run: milliseconds from the request to the last byte, bytes, and the
/// process's CPU milliseconds meanwhile. A new client per run, so every run pays for its
/// connection like a cold Folio fill does.
///
/// The limit of a cold fill on Folio's stack: Folio does this plus indexing, validating and
/// hashing, and then writes the first page.
let arguments = CommandLine.arguments
guard arguments.count >= 2, let runs = Int(arguments.count > 2 ? arguments[2] : "1"), runs > 0 else {
    FileHandle.standardError.write(Data("usage: StreamDiscard URL [RUNS]\n".utf8))
    exit(2)
}
let url = arguments[1]

func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) * 1e3 + Double(usage.ru_utime.tv_usec) / 1e3
    return user + Double(usage.ru_stime.tv_sec) * 1e3 + Double(usage.ru_stime.tv_usec) / 1e3
}

for _ in 0..<runs {
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let cpuStart = cpuMilliseconds()
    let start = ContinuousClock.now
    var received = 0
    do {
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
        for try await chunk in response.body {
            received += chunk.readableBytes
        }
    } catch {
        FileHandle.standardError.write(Data("StreamDiscard: \(error)\n".utf8))
        try? await client.shutdown().get()
        exit(1)
    }
    let elapsed = ContinuousClock.now - start
    let cpu = cpuMilliseconds() - cpuStart
    try await client.shutdown().get()
    let milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15
    print(String(format: "%.2f ms %d bytes %.0f cpu-ms", milliseconds, received, cpu))
}
