import Testing

@testable import FolioClient

/// The speed judgement behind flings (docs/CLIENT.md, "Flings"), time moved by hand.
@Suite struct ScrollMotionTests {
    let start = ContinuousClock.now

    @Test func theOpeningRangeAndARedrawAreSettled() {
        var motion = ScrollMotion(settleDelay: .milliseconds(100))
        motion.move(to: 0..<10, at: start)
        #expect(motion.isSettled)
        motion.move(to: 500..<510, at: start + .milliseconds(16))
        #expect(!motion.isSettled)
        motion.move(to: 500..<510, at: start + .milliseconds(32))
        #expect(motion.isSettled)
    }

    @Test func aMoveAfterARestHasNoSpeedUntilTheNextFrame() {
        var motion = ScrollMotion(settleDelay: .milliseconds(100))
        motion.move(to: 0..<10, at: start)
        motion.move(to: 100..<110, at: start + .seconds(2))
        #expect(motion.velocity == nil)
        #expect(motion.predicted(after: .milliseconds(80), count: 5000) == nil)
        motion.move(to: 200..<210, at: start + .seconds(2) + .milliseconds(20))
        #expect(abs((motion.velocity ?? 0) - 5000) < 0.01)
        motion.settle()
        #expect(motion.isSettled)
    }

    @Test func thePredictionFollowsTheSpeedAndStopsAtTheEnds() throws {
        var motion = ScrollMotion(settleDelay: .milliseconds(100))
        motion.move(to: 100..<110, at: start)
        motion.move(to: 102..<112, at: start + .milliseconds(20))  // 100 rows/s
        #expect(motion.predicted(after: .milliseconds(300), count: 5000) == 132..<142)
        motion.move(to: 4900..<4910, at: start + .milliseconds(40))  // a fling towards the end
        #expect(motion.predicted(after: .milliseconds(300), count: 5000) == 4990..<5000)
        motion.move(to: 10..<20, at: start + .milliseconds(60))  // and back to the top
        #expect(motion.predicted(after: .milliseconds(300), count: 5000) == 0..<10)
    }

    @Test func theLatencyIsAMovingAverage() {
        var latency = LatencyEstimate()
        #expect(latency.value == .milliseconds(100))
        latency.record(.milliseconds(300))
        #expect(latency.value == .milliseconds(300))
        latency.record(.milliseconds(100))
        #expect(abs((latency.value - .milliseconds(240)).seconds) < 1e-6)
    }
}
