// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets, outside the main build: `-sanitize=fuzzer,address` applies to the whole
// build graph and clashes with an `@main` executable. Build and run with
// `scripts/fuzz.sh TARGET SECONDS` (flags: `-c debug -Xswiftc -sanitize=fuzzer,address`).
//
// SwiftPM links every executable with its own entry point aliased to `main`, so libFuzzer's
// `main` never runs: each target's main.swift calls `LLVMFuzzerRunDriver` (declared by the
// FuzzDriver C target) with its `LLVMFuzzerTestOneInput`.
//
// FuzzListIndexer and FuzzQuery use the engine library as it is (its swift-crypto C code is
// built without sanitizers, since only swiftc gets the flag). The Link header parser and the
// config loader live in FolioGateway, whose dependencies (Hummingbird, NIO, NIO SSL,
// AsyncHTTPClient) would make the sanitized build take far longer than the fuzzing: their
// targets compile the gateway's own files through symlinks (`Sources/FuzzLinkHeader/Crawl/*`,
// `Sources/FuzzConfig/Configuration` -> the whole directory, `Sources/FuzzConfig/Routing/*`,
// `Sources/FuzzConfig/Compression/ContentCoding.swift`),
// which need nothing beyond Foundation, Yams and (for the config's paging types) the engine.
let package = Package(
    name: "folio-fuzz",
    dependencies: [
        .package(name: "folio", path: ".."),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    ],
    targets: [
        // Declares libFuzzer's `LLVMFuzzerRunDriver`, which each target's main.swift calls.
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "FuzzListIndexer",
            dependencies: ["FuzzDriver", .product(name: "FolioEngine", package: "folio")]
        ),
        .executableTarget(
            name: "FuzzQuery",
            dependencies: ["FuzzDriver", .product(name: "FolioEngine", package: "folio")]
        ),
        .executableTarget(name: "FuzzLinkHeader", dependencies: ["FuzzDriver"]),
        .executableTarget(
            name: "FuzzConfig",
            dependencies: [
                "FuzzDriver", .product(name: "Yams", package: "Yams"), .product(name: "FolioEngine", package: "folio"),
            ]
        ),
    ]
)
