#include "CAllocator.h"

// Any C library header defines __GLIBC__ on glibc; test it only after one.
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

int folio_fix_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

int folio_return_free_memory(void) {
    return malloc_trim(0);
}
#else
int folio_fix_mmap_threshold(int bytes) {
    (void)bytes;
    return 0;
}

int folio_return_free_memory(void) {
    return 0;
}
#endif
