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
// Each target links the library it fuzzes as it is: the engine (list indexer, query parser,
// Link header parser) or the configuration loader, whose only dependencies are the engine and
// Yams. Their C dependencies (swift-crypto, libyaml) are built without sanitizers, since only
// swiftc gets the flag; nothing of the gateway (Hummingbird, NIO) is built.
let package = Package(
    name: "folio-fuzz",
    dependencies: [.package(name: "folio", path: "..")],
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
        .executableTarget(
            name: "FuzzLinkHeader",
            dependencies: ["FuzzDriver", .product(name: "FolioEngine", package: "folio")]
        ),
        .executableTarget(
            name: "FuzzConfig",
            dependencies: ["FuzzDriver", .product(name: "FolioConfiguration", package: "folio")]
        ),
    ]
)
