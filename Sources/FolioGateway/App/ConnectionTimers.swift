import NIOCore

/// The timers `FrontDoorHandler` keeps for its connection (docs/API.md, "Connections"): the
/// idle timeout, in Hummingbird's place (requests the front door answers never reach
/// Hummingbird's connection state handler), and the linger after the output was closed. Used
/// on the connection's event loop only.
final class ConnectionTimers {
    let idleTimeout: TimeAmount?
    private var idleCheck: Scheduled<Void>?
    /// The full close that ends lingering after the output was closed.
    private var lingerClose: Scheduled<Void>?
    /// Bytes the client had acknowledged at the last idle check.
    private var acknowledgedAtLastCheck: UInt64 = 0

    init(idleTimeout: TimeAmount?) {
        self.idleTimeout = idleTimeout
    }

    /// How long a connection whose output is closed waits for the client's close before it is
    /// closed in full: nginx's `lingering_timeout`, or the idle timeout when shorter.
    static let lingerTime = TimeAmount.seconds(5)

    func cancel() {
        idleCheck?.cancel()
        idleCheck = nil
        lingerClose?.cancel()
        lingerClose = nil
    }

    /// Closes the connection in full once it has lingered (the output is closed).
    func startLingering(_ context: ChannelHandlerContext) {
        guard lingerClose == nil else { return }
        let delay = min(Self.lingerTime, idleTimeout ?? Self.lingerTime)
        lingerClose = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: delay) {
            context.close(promise: nil)
        }
    }

    /// Closes the connection once it has been idle for `idleTimeout`: no answer written and no
    /// byte taken by the client for that long, unless an answer is owed (`kept`, or `streamOwed`:
    /// an event stream has the connection) and nothing waits for the client to take it.
    func startIdleChecks(
        _ context: ChannelHandlerContext, kept: KeptAnswerHandler, streamOwed: @escaping () -> Bool
    ) {
        guard let idleTimeout, idleCheck == nil else { return }
        kept.touch()
        scheduleIdleCheck(context, in: idleTimeout, kept: kept, streamOwed: streamOwed)
    }

    private func scheduleIdleCheck(
        _ context: ChannelHandlerContext, in delay: TimeAmount, kept: KeptAnswerHandler,
        streamOwed: @escaping () -> Bool
    ) {
        idleCheck = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: delay) { [self] in
            idleCheck = nil
            guard let idleTimeout else { return }
            let owed = kept.owesAnswer || streamOwed()
            let busy: Bool
            if let acknowledged = AcknowledgedBytes.of(context.channel) {
                // Bytes the client takes are progress; a client that stops reading ends with
                // the timeout like an idle one. An owed answer is busy only while nothing waits
                // for the client.
                if acknowledged > acknowledgedAtLastCheck { kept.touch() }
                acknowledgedAtLastCheck = acknowledged
                let unsent = (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
                busy = owed && unsent == 0
            } else {
                // No count of what the client took: busy while anything is owed or unsent.
                busy = owed || !context.channel.isWritable
            }
            switch IdleTimeout.decide(now: .now(), lastActive: kept.lastActive, busy: busy, timeout: idleTimeout)
            {
            case .close:
                context.close(promise: nil)
            case .checkAgain(let delay):
                scheduleIdleCheck(context, in: delay, kept: kept, streamOwed: streamOwed)
            }
        }
    }
}
