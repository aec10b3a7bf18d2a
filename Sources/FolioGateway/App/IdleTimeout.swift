import NIOCore

/// When an idle connection is closed: Hummingbird's rule (a connection is idle while no answer
/// is owed; it is closed once idle for the timeout since its last answer or its start), kept by
/// `FrontDoorHandler`, which also counts any bytes sent as activity (a slow client reading a
/// large page stays) and an owed answer as busy only while nothing waits for the client to read
/// (a client that stops reading is closed like an idle one, as nginx's `send_timeout` does).
/// A head or body still being read does not count as activity, so slow header and body
/// trickles end too. Pure, for table tests.
enum IdleTimeout {
    enum Decision: Equatable {
        case close
        case checkAgain(in: TimeAmount)
    }

    static func decide(now: NIODeadline, lastActive: NIODeadline, busy: Bool, timeout: TimeAmount) -> Decision {
        if busy { return .checkAgain(in: timeout) }
        let idleFor = now - lastActive
        return idleFor >= timeout ? .close : .checkAgain(in: timeout - idleFor)
    }
}
