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
}

/// Counters of a list's page requests, for tests, logs and the `folio-scroll` status line.
///
/// `cancelled` counts cancellations issued; a request whose answer was already on its way when
/// it was cancelled may still be stored and counted in `loaded` too.
public struct PagedListStatistics: Sendable, Equatable {
    /// Page requests handed to the transport (the first page of `load()` included).
    public var started = 0
    public var loaded = 0
    /// Requests cancelled in flight because their page left the window or the list started over.
    public var cancelled = 0
    public var failed = 0
    /// Resets after a 410.
    public var resets = 0
}
