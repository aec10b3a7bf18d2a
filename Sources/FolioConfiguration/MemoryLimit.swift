import Foundation

/// The container's memory limit, for `cache.maxBytes: auto` (half of it; 512 MiB without one).
///
/// Read from cgroup v2 (`memory.max` of this process's cgroup, else of the mount's root) or v1
/// (`memory.limit_in_bytes`). `root` is where `/` is taken to be, so tests read a fake tree.
public enum MemoryLimit {
    /// What `auto` resolves to without a limit.
    public static let fallbackCacheBytes = 512 << 20

    /// The limit in bytes, or nil when there is none (`max`, v1's near-2^63 "unlimited", no
    /// cgroup file at all).
    public static func detect(root: String = "/") -> Int? {
        let base = (root.hasSuffix("/") ? root : root + "/") + "sys/fs/cgroup"
        var v2: [String] = []
        var v1: [String] = []
        for line in (read(base.replacingOccurrences(of: "sys/fs/cgroup", with: "proc/self/cgroup")) ?? "")
            .split(separator: "\n")
        {
            // `0::/path` (v2) or `N:controller,…:/path` (v1).
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            let path = parts[2] == "/" ? "" : String(parts[2])
            if parts[0] == "0", parts[1].isEmpty { v2.append(base + path + "/memory.max") }
            if parts[1].split(separator: ",").contains("memory") {
                v1.append(base + "/memory" + path + "/memory.limit_in_bytes")
            }
        }
        v2.append(base + "/memory.max")
        v1.append(base + "/memory/memory.limit_in_bytes")
        for file in v2 {
            guard let text = read(file) else { continue }
            return text == "max" ? nil : Int(text)
        }
        for file in v1 {
            guard let text = read(file), let value = Int(text) else { continue }
            // v1 writes "unlimited" as the largest page-aligned Int64.
            return value >= 1 << 62 ? nil : value
        }
        return nil
    }

    /// `cache.maxBytes: auto`: half the limit, or `fallbackCacheBytes` without one.
    public static func autoCacheBytes(limit: Int?) -> Int {
        limit.map { max(1 << 20, $0 / 2) } ?? fallbackCacheBytes
    }

    private static func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
