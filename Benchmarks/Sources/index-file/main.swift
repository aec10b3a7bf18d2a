import FolioEngine
import Foundation

/// `index-file PATH [RUNS]`: indexes the JSON array in PATH as a fill does (reserve the length,
/// then per 1 MiB batch (`IndexerBox.defaultBatchBytes`): copy it into the store and scan it,
/// the batch before hashed in the background meanwhile, settle; finish) and prints MB/s per
/// run: by the wall clock, by the CPU time of the whole process (indexing plus hashing on the
/// other core), and by the CPU time of the copies, scans and `finish` alone (the indexing
/// thread's own work: the fresh store's first-touch faults, copy, validate, record ranges).
/// The box runs each batch's copy and scan as one job on a fill worker; here they run on the
/// calling thread so that their CPU time can be read. A plain process to run under `perf` or
/// `valgrind --tool=callgrind` when the engine benchmark misses its goal.
let arguments = CommandLine.arguments
guard arguments.count >= 2, let data = FileManager.default.contents(atPath: arguments[1]),
    let runs = Int(arguments.count > 2 ? arguments[2] : "5"), runs > 0
else {
    FileHandle.standardError.write(Data("usage: index-file PATH [RUNS]\n".utf8))
    exit(2)
}
let body = [UInt8](data)

func cpuSeconds(_ clock: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// CPU time of `work` on its thread (a task may resume on another thread after each `await`,
/// so this is summed per synchronous call).
func threadCPU<T>(_ seconds: inout Double, _ work: () throws -> T) rethrows -> T {
    let start = cpuSeconds(CLOCK_THREAD_CPUTIME_ID)
    defer { seconds += cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - start }
    return try work()
}

/// One fill's indexing, off the main actor like the gateway's download task (a call from
/// top-level code would hop to and from the main actor at every `settle`).
func index(_ body: [UInt8], threadSeconds: inout Double) async throws -> (ItemList, String) {
    var indexer = ListIndexer(items: .root, limits: IndexLimits(maxBytes: Int(UInt32.max)), sort: [])
    indexer.reserve(additionalBytes: body.count)
    var offset = 0
    while offset < body.count {
        let end = min(offset + IndexerBox.defaultBatchBytes, body.count)
        await indexer.settle()
        try threadCPU(&threadSeconds) {
            try body.withUnsafeBytes { bytes in
                try indexer.stage(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            }
            try indexer.scanStaged(background: true)
        }
        offset = end
    }
    await indexer.settle()
    return try threadCPU(&threadSeconds) { try indexer.finish() }
}

for _ in 0..<runs {
    let cpuStart = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID)
    var threadSeconds = 0.0
    let start = ContinuousClock.now
    let (list, token) = try await index(body, threadSeconds: &threadSeconds)
    let elapsed = ContinuousClock.now - start
    let cpu = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - cpuStart
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    print(
        String(
            format: "%.0f MB/s wall, %.0f MB/s of process CPU, %.0f MB/s of indexing-thread CPU, %d elements, token %@",
            Double(body.count) / 1e6 / seconds, Double(body.count) / 1e6 / cpu,
            Double(body.count) / 1e6 / threadSeconds, list.count, token))
}
