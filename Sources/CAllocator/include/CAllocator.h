#ifndef FOLIO_CALLOCATOR_H
#define FOLIO_CALLOCATOR_H

/// Fixes glibc's mmap threshold at `bytes` (turning off its dynamic raise), so every block of
/// at least that size lives in its own mapping and goes back to the OS when freed.
/// Returns 1 on success, 0 where the C library has no such setting (not glibc).
int folio_fix_mmap_threshold(int bytes);

#endif
