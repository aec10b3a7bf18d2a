#!/usr/bin/env python3
"""Size against CPU time of each compression level on Folio pages (BENCHMARKS.md,
"Compression levels"): calls the same C libraries Folio links (libbrotlienc, zlib, libzstd)
through ctypes on 25-, 100- and 500-item pages of the benchmark list's shape.

Usage: scripts/compression-levels.py   (needs libbrotli1 and libzstd1)
"""
import ctypes, ctypes.util, json, time, zlib

brotli = ctypes.CDLL(ctypes.util.find_library("brotlienc") or "libbrotlienc.so.1")
zstd = ctypes.CDLL(ctypes.util.find_library("zstd") or "libzstd.so.1")
brotli.BrotliEncoderCompress.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_size_t,
                                         ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t), ctypes.c_char_p]
brotli.BrotliEncoderMaxCompressedSize.restype = ctypes.c_size_t
brotli.BrotliEncoderMaxCompressedSize.argtypes = [ctypes.c_size_t]
zstd.ZSTD_compressBound.restype = ctypes.c_size_t
zstd.ZSTD_compressBound.argtypes = [ctypes.c_size_t]
zstd.ZSTD_compress.restype = ctypes.c_size_t
zstd.ZSTD_compress.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]

def br(data, q):
    size = ctypes.c_size_t(brotli.BrotliEncoderMaxCompressedSize(len(data)))
    out = ctypes.create_string_buffer(size.value)
    assert brotli.BrotliEncoderCompress(q, 22, 1, len(data), data, ctypes.byref(size), out) == 1  # BROTLI_MODE_TEXT
    return size.value

def gz(data, level):
    c = zlib.compressobj(level, zlib.DEFLATED, 31)
    return len(c.compress(data) + c.flush())

def zs(data, level):
    cap = zstd.ZSTD_compressBound(len(data))
    out = ctypes.create_string_buffer(cap)
    return zstd.ZSTD_compress(out, cap, data, len(data), level)

def page(n):
    # The shape of Benchmarks/Sources/ListData: about 100 bytes an item.
    items = [json.dumps({"id": i, "name": "Item %06d" % i, "category": ["tools", "garden", "kitchen", "toys"][i % 4],
                         "price": round(1 + (i * 37 % 1000) / 10, 2), "inStock": i % 3 != 0}, separators=(",", ":"))
             for i in range(1000, 1000 + n)]
    paging = '{"paging":{"totalCount":1000000,"offset":0,"pageSize":%d,"page":0,"pageCount":%d,"pageBase":0,"hasMore":true,' \
             '"snapshot":"k3J9xQ2bLm0aZ8Yt","first":"/objects?pageSize=%d&offset=0&snapshot=k3J9xQ2bLm0aZ8Yt","previous":null,' \
             '"next":"/objects?pageSize=%d&offset=%d&snapshot=k3J9xQ2bLm0aZ8Yt","last":"/objects?pageSize=%d&offset=999975&snapshot=k3J9xQ2bLm0aZ8Yt"},' % (n, 1000000 // n, n, n, n, n)
    return (paging + '"objects":[' + ",".join(items) + "]}").encode()

def timed(f, data, level):
    best = None
    for _ in range(5):
        start = time.perf_counter()
        size = f(data, level)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None or elapsed < best else best
    return size, best * 1e6

print("%-6s %-6s %8s %8s %7s %9s" % ("coding", "level", "items", "bytes", "ratio", "µs (min)"))
for n in (25, 100, 500):
    data = page(n)
    print("%-6s %-6s %8d %8d %7s %9s" % ("none", "-", n, len(data), "1.00", "-"))
    for name, f, levels in (("br", br, (1, 4, 5, 6, 8, 9, 11)), ("gzip", gz, (1, 6, 9)), ("zstd", zs, (1, 3, 6, 9, 19))):
        for level in levels:
            size, us = timed(f, data, level)
            print("%-6s %-6d %8d %8d %7.2f %9.0f" % (name, level, n, size, len(data) / size, us))
