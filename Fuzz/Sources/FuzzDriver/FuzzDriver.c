// Only here so SwiftPM builds the module; the driver itself is in the libFuzzer runtime.
