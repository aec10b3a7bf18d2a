import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Transparent huge pages for large list stores.
///
/// Filling a fresh 256 MiB store takes some 65 000 page faults; measured here, they cost as much
/// as validating the bytes (copying 47 MB: 22 ms with 4 KiB pages, 4 ms with 2 MiB pages).
/// Linux defaults to `madvise` mode, so the store asks for them. Only an advice: contents and
/// ownership are untouched, and other systems ignore it.
enum HugePages {
    private static let size = 2 << 20

    /// Advises huge pages for the 2 MiB-aligned interior of `byteCount` bytes at `base`.
    static func advise(_ base: UnsafeRawPointer?, byteCount: Int) {
        #if os(Linux)
            guard let base, byteCount >= 2 * size else { return }
            let mask = UInt(size - 1)
            let start = (UInt(bitPattern: base) + mask) & ~mask
            let end = (UInt(bitPattern: base) + UInt(byteCount)) & ~mask
            guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(pointer, Int(end - start), MADV_HUGEPAGE)
        #endif
    }

    /// Gives the pages of `array`'s unused capacity back to the kernel (`MADV_DONTNEED` on
    /// the whole pages after its last element), so a large array that will not grow again
    /// holds no memory beyond its elements without being copied to an exact size. The
    /// capacity stays reserved address space; touching it again reads zeros. The range is
    /// also advised against huge pages: khugepaged would otherwise collapse it with the
    /// array's last pages into huge pages again (measured: a megabyte of a released tail
    /// resident again within seconds).
    static func releaseUnused<Element>(_ array: [Element]) {
        #if os(Linux)
            array.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress.map(UnsafeRawPointer.init) else { return }
                let stride = MemoryLayout<Element>.stride
                let pageMask = UInt(4096 - 1)
                let start = (UInt(bitPattern: base) + UInt(array.count * stride) + pageMask) & ~pageMask
                let end = (UInt(bitPattern: base) + UInt(array.capacity * stride)) & ~pageMask
                guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
                _ = madvise(pointer, Int(end - start), MADV_NOHUGEPAGE)
                _ = madvise(pointer, Int(end - start), MADV_DONTNEED)
            }
        #endif
    }

    /// `capacity` uninitialized elements, advised for huge pages: a sort's working arrays of a
    /// million elements are first touched as it runs, and on this VM 4 KiB first-touch faults
    /// cost more than the radix passes themselves.
    static func allocate<Element>(_ type: Element.Type, capacity: Int) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: capacity)
        advise(buffer)
        return buffer
    }

    /// Advises huge pages for all of `buffer` (before its first write).
    static func advise<Element>(_ buffer: UnsafeMutableBufferPointer<Element>) {
        advise(UnsafeRawPointer(buffer.baseAddress), byteCount: buffer.count * MemoryLayout<Element>.stride)
    }

    /// Advises huge pages for all of `array`'s capacity.
    static func advise<Element>(_ array: [Element]) {
        array.withUnsafeBufferPointer {
            advise(UnsafeRawPointer($0.baseAddress), byteCount: array.capacity * MemoryLayout<Element>.stride)
        }
    }

    /// Advises huge pages for all of `array`'s capacity and has its unused part's pages
    /// faulted in on the fill workers (`populateInBackground`), for an array about to grow
    /// into its reserved capacity.
    static func prepare<Element>(_ array: [Element]) {
        advise(array)
        array.withUnsafeBufferPointer {
            populateInBackground(
                UnsafeRawPointer($0.baseAddress).map { $0 + array.count * MemoryLayout<Element>.stride },
                byteCount: (array.capacity - array.count) * MemoryLayout<Element>.stride)
        }
    }

    /// Populates `byteCount` bytes at `base` (`MADV_POPULATE_WRITE`, Linux 5.14) on the fill
    /// workers (low priority), so the kernel zeroes fresh pages there rather than in the thread
    /// that is indexing.
    ///
    /// Measured on this VM, first-touch faults cost 75–136 ms per 100 MB, more than validating
    /// the bytes. The advice never changes memory contents, so it is harmless when it races
    /// the writer, and when the store has been freed meanwhile it fails or touches memory that
    /// is someone else's, unchanged. Errors (older kernels, unmapped ranges) are ignored.
    static func populateInBackground(_ base: UnsafeRawPointer?, byteCount: Int) {
        #if os(Linux)
            guard let base, byteCount >= 2 * size else { return }
            let pageMask = UInt(4096 - 1)
            var offset = (UInt(bitPattern: base) + pageMask) & ~pageMask
            let end = UInt(bitPattern: base) + UInt(byteCount)
            while offset < end {
                // In steps, so the writer finds the first pages ready early, and each its own
                // job, so a fill's other work (hashing) is not queued behind all of them.
                let (start, step) = (offset, min(UInt(8 << 20), end - offset))
                FillWorkers.shared.execute {
                    let madvisePopulateWrite: Int32 = 23
                    guard let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
                    _ = madvise(pointer, Int(step), madvisePopulateWrite)
                }
                offset += step
            }
        #endif
    }
}
