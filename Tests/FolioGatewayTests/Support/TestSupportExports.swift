/// TestUpstream, TestClock and `eventually` live in FolioTestSupport (the client's tests use them
/// too); re-exported so every file of this module sees them without its own import.
@_exported import FolioTestSupport
