/// What changed in a `PagedList`, for the UI to reload rows.
public enum PagedListChange: Sendable, Equatable {
    /// These indexes now have elements (reload those rows).
    case pageLoaded(Range<Int>)
    /// The list was replaced: its snapshot expired (410), or `load()` was called again, and it
    /// now shows the current snapshot, with this count. Reload everything.
    case reset(count: Int)
    /// A page could not be loaded. It is asked again by `retryFailedPages()`, or when it comes
    /// back into the window after leaving it; touching its rows does not retry it. Page 0 after
    /// a 410 is the reset's first page: the list waits on its old rows until
    /// `retryFailedPages()` tries the reset again.
    case pageFailed(page: Int, error: ClientError)
    /// A page's request was cancelled because the page left the visible window plus margin, or
    /// because the list starts over (a 410 or `load()` again; the `.reset` follows).
    case pageCancelled(page: Int)
    /// `sync()` or `watch()` applied the changes between two snapshots: rows removed, inserted,
    /// reloaded and moved, as `performBatchUpdates` takes them; the count is `change.count`.
    case changed(ListChange)
}

/// Counters of a list's page requests, for tests, logs and the `folio-scroll` status line.
///
/// `cancelled` counts cancellations issued; a request whose answer was already on its way when
/// it was cancelled may still be stored and counted in `loaded` too.
public struct PagedListStatistics: Sendable, Equatable {
    /// Page requests handed to the transport (the first page of `load()` included).
    public var started: Int
    public var loaded: Int
    /// Requests cancelled in flight: their page left the window, the list started over, or every
    /// caller of `load()` waiting for it was cancelled. Never counted in `failed`.
    public var cancelled: Int
    /// Requests that ended in an error (not a cancellation).
    public var failed: Int
    /// Times the list was replaced (`.reset(count:)`), whatever the reason: a 410, or `load()`
    /// called again.
    public var resets: Int

    public init(started: Int = 0, loaded: Int = 0, cancelled: Int = 0, failed: Int = 0, resets: Int = 0) {
        self.started = started
        self.loaded = loaded
        self.cancelled = cancelled
        self.failed = failed
        self.resets = resets
    }
}
