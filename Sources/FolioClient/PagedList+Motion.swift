import Foundation

extension PagedList {
    /// Marks the window's pages that would no longer be on screen (or in the margin) when their
    /// answers arrived at the current speed, and arms the settle timer that asks them once the
    /// range stays still (docs/CLIENT.md, "Flings").
    func deferPages(in state: inout State) {
        state.settleTimer?.cancel()
        state.settleTimer = nil
        state.settleTicket += 1
        guard let visible = state.visible, !state.motion.isSettled else {
            state.deferred = []
            return
        }
        var worth: Set<Int> = []
        if let predicted = state.motion.predicted(after: state.latency.value, count: state.count) {
            worth = Set(window(for: predicted, count: state.count, pageSize: state.pageSize))
            // Pages already on screen now and then are worth it whatever the speed.
            worth.formIntersection(window(for: visible, count: state.count, pageSize: state.pageSize))
        }
        state.deferred = Set(state.window).subtracting(worth)
        guard !state.deferred.isEmpty else { return }
        let (settleDelay, ticket) = (settleDelay, state.settleTicket)
        state.settleTimer = Task { [weak self] in
            try? await Task.sleep(for: settleDelay)
            self?.settle(ticket)
        }
    }

    /// The range stayed still: every page of the window is worth asking.
    private func settle(_ ticket: Int) {
        state.withLock { state in
            // A newer range re-armed the timer: this one is stale.
            guard ticket == state.settleTicket, !state.deferred.isEmpty else { return }
            state.motion.settle()
            state.deferred = []
            state.settleTimer = nil
            pump(&state)
        }
    }
}
