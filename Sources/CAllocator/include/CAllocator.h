#ifndef FOLIO_CALLOCATOR_H
#define FOLIO_CALLOCATOR_H

/// Fixes glibc's mmap threshold at `bytes` (turning off its dynamic raise), so every block of
/// at least that size lives in its own mapping and goes back to the OS when freed.
/// Returns 1 on success, 0 where the C library has no such setting (not glibc).
int folio_fix_mmap_threshold(int bytes);

/// Gives the free pages inside every malloc arena back to the OS (glibc's `malloc_trim(0)`):
/// freed blocks below the mmap threshold otherwise stay resident, fragmented between live
/// ones. Returns 1 when memory was released, 0 when none was or off glibc.
int folio_return_free_memory(void);

#endif
