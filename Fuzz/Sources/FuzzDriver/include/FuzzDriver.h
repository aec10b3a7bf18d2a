#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (in the runtime `-sanitize=fuzzer` links). SwiftPM gives every executable
/// its own entry point (`<module>_main`, aliased to `main`), so libFuzzer's `main` is never used:
/// each target's main.swift calls this instead.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
