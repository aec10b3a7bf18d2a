import CAllocator

/// Makes freed list buffers go back to the OS, so resident memory follows what the cache holds.
///
/// glibc serves blocks above its mmap threshold (128 KiB at start) from their own mappings,
/// returned on free; but each time such a block is freed it raises the threshold to that size
/// (up to 32 MiB). After the first evicted ~1 MiB list, later list buffers come from the heap,
/// where freed space stays resident and fragments: 10–18 MiB over `cache.maxBytes` in
/// `scripts/cache-bound.sh`, 2–3 MiB with a fixed threshold (BENCHMARKS.md).
func tuneAllocator() {
    _ = folio_fix_mmap_threshold(256 * 1024)
}
