import FolioConfiguration
import Foundation
import Testing

@testable import FolioGateway

/// `cache.maxBytes: auto` (issue 20): the limit is read from a fake cgroup tree under a
/// temporary root, the way `FOLIO_CGROUP_ROOT` points the real reader at one.
@Suite("cache.maxBytes: auto follows the container's memory limit")
struct MemoryLimitTests {
    /// A temporary root holding `files` (path relative to the root → contents).
    private func withTree<T>(_ files: [String: String], _ body: (String) throws -> T) throws -> T {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cgroup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, contents) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        return try body(root.path)
    }

    static let gib = 1 << 30

    @Test("cgroup v2: this process's own cgroup wins over the mount's root")
    func v2OwnCgroup() throws {
        let limit = try withTree([
            "proc/self/cgroup": "0::/kubepods/pod1/folio\n",
            "sys/fs/cgroup/kubepods/pod1/folio/memory.max": "1073741824\n",
            "sys/fs/cgroup/memory.max": "max\n",
        ]) { MemoryLimit.detect(root: $0) }
        #expect(limit == Self.gib)
        #expect(MemoryLimit.autoCacheBytes(limit: limit) == Self.gib / 2)
    }

    @Test("cgroup v2 inside a namespace: the path is /, the root's memory.max is the limit")
    func v2Namespaced() throws {
        let limit = try withTree([
            "proc/self/cgroup": "0::/\n",
            "sys/fs/cgroup/memory.max": "268435456",
        ]) { MemoryLimit.detect(root: $0) }
        #expect(limit == 256 << 20)
    }

    @Test("cgroup v2 `max` is no limit: 512 MiB")
    func v2Max() throws {
        let limit = try withTree([
            "proc/self/cgroup": "0::/\n",
            "sys/fs/cgroup/memory.max": "max\n",
        ]) { MemoryLimit.detect(root: $0) }
        #expect(limit == nil)
        #expect(MemoryLimit.autoCacheBytes(limit: limit) == 512 << 20)
    }

    @Test("cgroup v1: the memory controller's limit_in_bytes")
    func v1() throws {
        let limit = try withTree([
            "proc/self/cgroup": "12:cpu,cpuacct:/docker/abc\n5:memory:/docker/abc\n1:name=systemd:/docker/abc\n",
            "sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "2147483648\n",
        ]) { MemoryLimit.detect(root: $0) }
        #expect(limit == 2 * Self.gib)
        #expect(MemoryLimit.autoCacheBytes(limit: limit) == Self.gib)
    }

    @Test("cgroup v1 unlimited (the largest page-aligned Int64) is no limit")
    func v1Unlimited() throws {
        let limit = try withTree([
            "proc/self/cgroup": "5:memory:/\n",
            "sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
        ]) { MemoryLimit.detect(root: $0) }
        #expect(limit == nil)
    }

    @Test("no cgroup files at all: no limit")
    func nothing() throws {
        #expect(try withTree([:]) { MemoryLimit.detect(root: $0) } == nil)
    }

    @Test("a tiny limit still leaves a 1 MiB cache")
    func tiny() {
        #expect(MemoryLimit.autoCacheBytes(limit: 100_000) == 1 << 20)
    }

    @Test("the config reads `auto` through FOLIO_CGROUP_ROOT and remembers the limit")
    func configAuto() throws {
        let configuration = try withTree([
            "proc/self/cgroup": "0::/\n",
            "sys/fs/cgroup/memory.max": "805306368\n",
        ]) { root in
            try ConfigurationLoader.parse(
                yaml: "cache:\n  maxBytes: auto\n" + ConfigFixture.minimal, file: "test.yaml",
                environment: ["FOLIO_CGROUP_ROOT": root])
        }
        #expect(configuration.cache.maxBytes == 384 << 20)
        #expect(configuration.cache.memoryLimit == .some(805_306_368))
    }

    @Test("a size in the file is used as written, with no limit read")
    func configSize() throws {
        let configuration = try ConfigurationLoader.parse(
            yaml: "cache:\n  maxBytes: 64MiB\n" + ConfigFixture.minimal, file: "test.yaml")
        #expect(configuration.cache.maxBytes == 64 << 20)
        #expect(configuration.cache.memoryLimit == nil)
    }

    @Test("`auto` is only for the global cache; other words are still errors")
    func configErrors() {
        let routeAuto = ConfigFixture.problems(
            ConfigFixture.minimal + "\n    cache:\n      maxBytes: auto\n")
        #expect(routeAuto.contains { $0.path.hasSuffix("cache.maxBytes") })
        let word = ConfigFixture.problems("cache:\n  maxBytes: automatic\n" + ConfigFixture.minimal)
        #expect(word.contains { $0.path == "cache.maxBytes" })
    }

    @Test("the bound in force is logged at start with where it came from")
    func logged() throws {
        let log = CapturedLog()
        var cache = Configuration.CacheSettings()
        cache.maxBytes = 384 << 20
        cache.memoryLimit = .some(805_306_368)
        logCacheBound(cache, logger: log.logger())
        cache.memoryLimit = .some(nil)
        cache.maxBytes = MemoryLimit.fallbackCacheBytes
        logCacheBound(cache, logger: log.logger())
        let lines = try log.messages("cache bound")
        #expect(lines.count == 2)
        #expect(lines.first?["max_bytes"] as? Int == 402_653_184)
        #expect(lines.first?["memory_limit"] as? Int == 805_306_368)
        #expect(lines.first?["source"] as? String == "auto")
        #expect(lines.last?["memory_limit"] as? String == "none")
    }
}
