#include "CAllocator.h"

// Any C library header defines __GLIBC__ on glibc; test it only after one.
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

int folio_fix_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}
#else
int folio_fix_mmap_threshold(int bytes) {
    (void)bytes;
    return 0;
}
#endif
