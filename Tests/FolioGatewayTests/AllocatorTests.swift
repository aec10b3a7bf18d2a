import CAllocator
import Testing

/// The executable fixes glibc's mmap threshold (Sources/folio/Allocator.swift); a build where
/// the C side silently compiles its no-op fallback would lose the memory figures in
/// BENCHMARKS.md without any other test noticing.
@Suite struct AllocatorTests {
    #if os(Linux) && canImport(Glibc)
        @Test func theMmapThresholdIsSetOnGlibc() {
            #expect(folio_fix_mmap_threshold(256 * 1024) == 1)
        }
    #endif
}
