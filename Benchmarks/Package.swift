// swift-tools-version: 6.1
import PackageDescription

// Folio's benchmarks live outside the main package so its build never resolves the benchmark
// harness. Engine benchmarks: `swift package --allow-writing-to-package-directory benchmark`.
// The other executables are the references of scripts/bench-gateway.sh.
let package = Package(
    name: "folio-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "folio", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // Deterministic list bodies shared by the benchmarks and `make-list`.
        .target(name: "ListData"),
        .executableTarget(
            name: "Engine",
            dependencies: [
                "ListData",
                .product(name: "FolioEngine", package: "folio"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Engine",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Indexes a file in a plain process, for profiling with perf or callgrind.
        .executableTarget(name: "index-file", dependencies: [.product(name: "FolioEngine", package: "folio")]),
        // Sort orders and section indexes of a 1M-name list, timed step by step.
        .executableTarget(
            name: "sections-perf", dependencies: ["ListData", .product(name: "FolioEngine", package: "folio")]),
        // Issue 16's derived orders and filtered views on a 1M-item list, timed step by step.
        .executableTarget(
            name: "query-perf", dependencies: ["ListData", .product(name: "FolioEngine", package: "folio")]),
        // Issue 41's change feed (id tables, diff, patch body) on a 1M-item list, step by step.
        .executableTarget(
            name: "changes-perf", dependencies: ["ListData", .product(name: "FolioEngine", package: "folio")]),
        // A fixed-arrival-rate load generator: latency from each request's due instant (wrk2's way).
        .executableTarget(
            name: "open-loop",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        // Writes a list body to a file, for nginx to serve as Folio's upstream.
        .executableTarget(name: "make-list", dependencies: ["ListData"]),
        // The limit of Folio's stack: Hummingbird answering fixed bytes from memory.
        .executableTarget(
            name: "SameBytesServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The rungs below it: NIO's HTTP/1 pipeline alone, and NIO with no HTTP codec at all.
        .executableTarget(
            name: "NIOSameBytes",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The limit of a cold fill: AsyncHTTPClient streaming a body and discarding it.
        .executableTarget(
            name: "StreamDiscard",
            dependencies: [.product(name: "AsyncHTTPClient", package: "async-http-client")]
        ),
    ]
)
