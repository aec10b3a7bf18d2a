import FuzzDriver

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

// libFuzzer's driver, started from this target's own entry point (see FuzzDriver.h).
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzQuery(data!, size) })
