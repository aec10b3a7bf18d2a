// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "folio",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "folio", targets: ["folio"]),
        .library(name: "FolioEngine", targets: ["FolioEngine"]),
        .library(name: "FolioConfiguration", targets: ["FolioConfiguration"]),
        .library(name: "FolioGateway", targets: ["FolioGateway"]),
        .library(name: "FolioRedis", targets: ["FolioRedis"]),
        // The app side of the pattern: Foundation only, so an app links no server code.
        .library(name: "FolioClient", targets: ["FolioClient"]),
        .executable(name: "folio-scroll", targets: ["folio-scroll"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // OTLP over HTTP only: the default traits add gRPC, minutes of build for nothing used.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // Pure engine: list index, paging, links, tokens, snapshot store. No HTTP, no YAML.
        .target(
            name: "FolioEngine",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        // The config file: YAML read once into the engine's types, every problem with its
        // position. No HTTP, so tools and the fuzz package link it alone.
        .target(
            name: "FolioConfiguration",
            dependencies: ["FolioEngine", .product(name: "Yams", package: "Yams")]
        ),
        // Gateway: route table, fill pipeline, upstream client, cache, Hummingbird responder.
        .target(
            name: "FolioGateway",
            dependencies: [
                "FolioEngine",
                "FolioConfiguration",
                "FolioRedis",
                "FolioRedisStore",
                "CAllocator",
                "CBrotli",
                "CZstd",
                "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
            ]
        ),
        // The compressors of docs/API.md, "Compressed answers": Debian's C libraries
        // (libbrotli-dev, libzstd-dev, zlib1g-dev).
        .systemLibrary(
            name: "CBrotli", path: "Sources/CBrotli", pkgConfig: "libbrotlienc",
            providers: [.apt(["libbrotli-dev"])]),
        .systemLibrary(name: "CZstd", path: "Sources/CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // One C call the Swift Glibc module does not expose (mallopt); see Allocator.swift.
        .target(name: "CAllocator"),
        .executableTarget(
            name: "folio",
            dependencies: [
                "FolioGateway",
                "FolioConfiguration",
                "CAllocator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // A small RESP2 client on SwiftNIO, in its own target so it can be swapped for a
        // maintained package (the local mirror has none).
        .target(
            name: "FolioRedis",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // What more than one test module needs (launching child processes safely, a real test
        // upstream, a hand-moved clock).
        .target(
            name: "FolioTestSupport",
            dependencies: [
                "FolioRedis",
                "FolioConfiguration",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/FolioTestSupport"),
        // Everything about the Redis-backed store (`cache.store: redis`; docs/DESIGN.md, "Redis, in
        // one place"): what Redis holds and the commands (`Wire/`), the store and its parts, the
        // connections (`Connection/`, where a new topology goes). What it needs of the gateway is
        // small protocols (`StoreMetrics`, `FillOutcome`) and plain values (`RouteShape`).
        .target(
            name: "FolioRedisStore",
            dependencies: [
                "FolioEngine",
                "FolioRedis",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The client library for apps (docs/CLIENT.md): URLSession (FoundationNetworking on
        // Linux) and nothing else; scripts/check-client-deps.sh fails CI if that changes.
        .target(name: "FolioClient"),
        // A terminal demo of the client: scrolls a list, placeholders filling in.
        .executableTarget(
            name: "folio-scroll",
            dependencies: ["FolioClient", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Tests mirror the targets: one test target per source target.
        .testTarget(name: "FolioEngineTests", dependencies: ["FolioEngine"]),
        .testTarget(
            name: "FolioConfigurationTests", dependencies: ["FolioConfiguration", "FolioEngine", "FolioTestSupport"]),
        .testTarget(
            name: "FolioRedisTests",
            dependencies: ["FolioRedis", "FolioTestSupport", .product(name: "NIOCore", package: "swift-nio")]
        ),
        .testTarget(
            name: "FolioRedisStoreTests",
            dependencies: [
                "FolioRedisStore", "FolioRedis", "FolioEngine", "FolioTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "FolioGatewayTests",
            dependencies: [
                "FolioGateway",
                "FolioTestSupport",
                "FolioConfiguration",
                "FolioRedis",
                "FolioRedisStore",
                "CAllocator",
                "CBrotli",
                "CZstd",
                "CZlib",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The client against a real gateway (buildApplication, live on loopback) and a real
        // upstream (FolioTestSupport's TestUpstream).
        .testTarget(
            name: "FolioClientTests",
            dependencies: [
                "FolioClient",
                "FolioGateway",
                "FolioConfiguration",
                "FolioTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
    ]
)
