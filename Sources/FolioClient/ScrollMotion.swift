/// How the visible range moves, for deciding which pages are worth asking now (docs/CLIENT.md,
/// "Flings"): a page is asked when it will still be on screen (or in the prefetch margin) by the
/// time its answer arrives, judged by the scrolling speed and the round trips measured so far.
///
/// Pure: time is passed in, so tests drive it by hand.
struct ScrollMotion: Sendable {
    /// How long the range must stay still to count as settled.
    let settleDelay: Duration
    private(set) var range: Range<Int>?
    private var movedAt: ContinuousClock.Instant?
    /// Rows per second (negative upwards); nil when unknown: the range moved after a rest, so
    /// one frame says nothing about the speed (a fling's first frame looks like a jump).
    private(set) var velocity: Double? = 0

    init(settleDelay: Duration) {
        self.settleDelay = settleDelay
    }

    /// The range `range` is on screen at `now`.
    mutating func move(to range: Range<Int>, at now: ContinuousClock.Instant) {
        defer {
            self.range = range
            movedAt = now
        }
        guard let previous = self.range, let movedAt else {
            velocity = 0  // the list opening: load what is shown
            return
        }
        let elapsed = now - movedAt
        if previous == range {
            velocity = 0  // a redraw of the same rows: the scroll has stopped
        } else if elapsed > settleDelay {
            velocity = nil
        } else {
            velocity = Double(range.lowerBound - previous.lowerBound) / max(elapsed.seconds, 0.001)
        }
    }

    /// The range stayed still for `settleDelay`.
    mutating func settle() {
        velocity = 0
    }

    var isSettled: Bool { velocity == 0 }

    /// The range expected on screen `latency` from now in a list of `count` rows (kept inside
    /// it: a fling towards an end stops there), or nil when the speed is unknown.
    func predicted(after latency: Duration, count: Int) -> Range<Int>? {
        guard let range, let velocity else { return nil }
        let shift = Int((velocity * latency.seconds).rounded())
        let lower = min(max(range.lowerBound + shift, 0), max(count - range.count, 0))
        return lower..<(lower + range.count)
    }
}

/// The round trip of a page request, as measured: a moving average of the recent ones.
struct LatencyEstimate: Sendable {
    /// Before any measurement: a mobile network's typical round trip.
    private(set) var value: Duration = .milliseconds(100)
    private var measured = false

    mutating func record(_ sample: Duration) {
        value = measured ? value * 0.7 + sample * 0.3 : sample
        measured = true
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
