import Benchmark
import FolioEngine
import Foundation
import ListData

/// Engine benchmarks (issue 6): indexing upstream bodies against Foundation's parser, and
/// writing one page at the start and at the end of a large list.
///
/// Bodies are generated once per process (`ListBody`, deterministic); each indexing iteration
/// feeds the body in 64 KiB chunks, as AsyncHTTPClient delivers it, after reserving its
/// length, as a `Content-Length` upstream allows.
let benchmarks: @Sendable () -> Void = {
    let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)
    let large = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResidentDelta, megabytesPerSecond],
        warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 12)
    let small = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, megabytesPerSecond],
        warmupIterations: 10, maxDuration: .seconds(3), maxIterations: 2_000)
    let reference = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, megabytesPerSecond],
        warmupIterations: 0, maxDuration: .seconds(30), maxIterations: 3)

    for (name, count, configuration) in [("1k", 1_000, small), ("1M", 1_000_000, large)] {
        Benchmark("Index \(name) elements", configuration: configuration) { benchmark in
            let body = Bodies.body(count: count)
            benchmark.startMeasurement()
            let start = ContinuousClock.now
            let (list, token) = try await Bodies.indexOverlapped(body)
            let elapsed = ContinuousClock.now - start
            benchmark.stopMeasurement()
            precondition(list.count == count)
            blackHole(token)
            benchmark.measurement(megabytesPerSecond, Bodies.megabytesPerSecond(body.count, elapsed))
        }
    }

    for (name, count, configuration) in [("1k", 1_000, small), ("1M", 1_000_000, reference)] {
        Benchmark("JSONSerialization \(name) elements (reference)", configuration: configuration) { benchmark in
            let data = Data(Bodies.body(count: count))
            benchmark.startMeasurement()
            let start = ContinuousClock.now
            let object = try JSONSerialization.jsonObject(with: data)
            let elapsed = ContinuousClock.now - start
            benchmark.stopMeasurement()
            precondition((object as? [Any])?.count == count)
            benchmark.measurement(megabytesPerSecond, Bodies.megabytesPerSecond(data.count, elapsed))
        }
    }

    let page = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        warmupIterations: 100, scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 10_000)
    for (name, count, offset) in [
        ("25-item page of a 10k list", 10_000, 0),
        ("25-item page at the start of the 1M list", 1_000_000, 0),
        ("25-item page at the end of the 1M list", 1_000_000, 999_975),
    ] {
        Benchmark(name, configuration: page) { benchmark in
            let (list, token) = Bodies.indexed(count: count)
            let view = ListView(list: list)
            let paging = Paging(totalCount: view.count, offset: offset, pageSize: 25, pageBase: 0)
            let links = LinkBuilder(
                base: "/objects", kept: [], names: ParameterNames(), style: .offset, pageSize: 25, pageBase: 0,
                snapshot: token)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(PageWriter.envelope(view: view, paging: paging, links: links, itemsKey: "objects"))
            }
        }
    }

    // What a fill of a route with `sort: [name]` and `sectionKey: name` adds (docs/API.md,
    // "Sorting"), and a client's `?sort=-price`: each iteration starts from fresh indexes.
    let sorting = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResidentDelta],
        warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 8)
    Benchmark("Sort the 1M list by name (sectionKey) and build its sections", configuration: sorting) { benchmark in
        let (list, _) = Bodies.indexed(count: 1_000_000)
        let name = try FieldPath("name")
        let sort = try SortSpec(parsing: ["name"])
        benchmark.startMeasurement()
        let indexes = SnapshotIndexes(list: list, sectionKey: name)
        let order = indexes.order(sort)
        blackHole(indexes.alphabeticalSections(order: order))
        benchmark.stopMeasurement()
        precondition(order?.count == list.count)
    }
    Benchmark("Sort the 1M list by -price", configuration: sorting) { benchmark in
        let (list, _) = Bodies.indexed(count: 1_000_000)
        let sort = try SortSpec(parsing: ["-price"])
        benchmark.startMeasurement()
        let indexes = SnapshotIndexes(list: list, sectionKey: nil)
        blackHole(indexes.order(sort))
        benchmark.stopMeasurement()
    }

    // Everything the gateway computes for a cached page besides HTTP: links, the Link header,
    // the ETag and the envelope.
    Benchmark("Page response parts (links, Link header, ETag, envelope), 10k list", configuration: page) { benchmark in
        let (list, token) = Bodies.indexed(count: 10_000)
        let view = ListView(list: list)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let paging = Paging(totalCount: view.count, offset: 0, pageSize: 25, pageBase: 0)
            let links = LinkBuilder(
                base: "/objects", kept: [], names: ParameterNames(), style: .offset, pageSize: 25, pageBase: 0,
                snapshot: token)
            blackHole(links.linkHeader(paging))
            blackHole(ETag.make(snapshot: token, query: links.url(offset: 0), representation: "envelope"))
            blackHole(PageWriter.envelope(view: view, paging: paging, links: links, itemsKey: "objects"))
        }
    }
}

/// Bodies and indexed lists, built once per process and shared by the benchmarks.
enum Bodies {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var bodies: [Int: [UInt8]] = [:]
    nonisolated(unsafe) private static var lists: [Int: (ItemList, String)] = [:]

    static func body(count: Int) -> [UInt8] {
        lock.withLock {
            if let body = bodies[count] { return body }
            let body = ListBody.make(count: count)
            bodies[count] = body
            return body
        }
    }

    static func indexed(count: Int) -> (ItemList, String) {
        let body = body(count: count)
        return lock.withLock {
            if let list = lists[count] { return list }
            let list = try! index(body)
            lists[count] = list
            return list
        }
    }

    /// Indexes `body` as the gateway does: reserve its length, then append 64 KiB chunks.
    static func index(_ body: [UInt8], chunkSize: Int = 64 << 10) throws -> (ItemList, String) {
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        indexer.reserve(additionalBytes: body.count)
        try body.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + chunkSize, bytes.count)
                try indexer.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                offset = end
            }
        }
        _ = try indexer.endBody()
        return try indexer.finish()
    }

    /// `index` as the gateway feeds a download: earlier chunks hashed in the background while
    /// the next is scanned.
    static func indexOverlapped(_ body: [UInt8], chunkSize: Int = 64 << 10) async throws -> (ItemList, String) {
        var indexer = ListIndexer(items: .root, limits: IndexLimits(), sort: [])
        indexer.reserve(additionalBytes: body.count)
        var offset = 0
        while offset < body.count {
            let end = min(offset + chunkSize, body.count)
            await indexer.settle()
            try body.withUnsafeBytes { bytes in
                try indexer.appendOverlapped(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            }
            offset = end
        }
        await indexer.settle()
        _ = try indexer.endBody()
        return try indexer.finish()
    }

    static func megabytesPerSecond(_ bytes: Int, _ elapsed: Duration) -> Int {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return Int(Double(bytes) / 1e6 / max(seconds, 1e-9))
    }
}
