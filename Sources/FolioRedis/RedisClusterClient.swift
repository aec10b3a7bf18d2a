import Synchronization

/// A Redis Cluster: each command goes to the primary of its key's hash slot, over one
/// reconnecting connection per primary (`RedisClient`).
///
/// The slot map comes from any node that answers (`CLUSTER SHARDS`, or `CLUSTER SLOTS` before
/// Redis 7), the seeds first known; it is refreshed when a command meets `MOVED` (the command
/// follows the redirection at once), when a node's connection fails (a failover may have
/// promoted its replica), and at least every `refreshInterval`. `ASK` (a slot being migrated)
/// sends that one command to the named node after `ASKING`. A pipeline is split by node, the
/// parts sent at the same time; answers come back in the commands' order. Commands never
/// span slots here: every multi-key command, transaction and script of the store keeps its
/// keys under one hash tag.
public final class RedisClusterClient: RedisCommands {
    /// The oldest a slot map may be before a command refreshes it (in the background).
    public static let refreshInterval = Duration.seconds(10)
    /// The oldest the slot map may be while a shard is lost.
    static let lostRefreshInterval = Duration.milliseconds(500)
    /// Redirections one command follows at most.
    static let maxRedirects = 5

    private struct State {
        var map: ClusterSlotMap?
        /// `map`, with the last primary of each slot that has none now: whose shard a command
        /// for such a slot failed on (`RedisError.node`, `ClusterShards`).
        var known = ClusterSlotMap()
        var refreshedAt: ContinuousClock.Instant?
        var refreshing: Task<Result<ClusterSlotMap, RedisError>, Never>?
        var clients: [ClusterSlotMap.Node: RedisClient] = [:]
    }

    /// Where to ask for the slot map first.
    public let seeds: [ClusterSlotMap.Node]
    /// Password, TLS and timeouts of every node's connection (host and port are each node's).
    public let configuration: RedisConfiguration
    let initialBackoff: Duration
    let maxBackoff: Duration
    private let state = Mutex(State())
    /// Shards whose primary failed, until one answers again.
    private let shards = ClusterShards()

    public init(
        seeds: [ClusterSlotMap.Node], configuration: RedisConfiguration, initialBackoff: Duration = .milliseconds(50),
        maxBackoff: Duration = .milliseconds(500)
    ) {
        self.seeds = seeds
        self.configuration = configuration
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
    }

    /// The slot map in use (nil before the first refresh).
    public var slotMap: ClusterSlotMap? { state.withLock { $0.map } }

    /// `handler` is told once when a shard's primary fails a command (not an error answer) and
    /// once when a primary of that shard answers again: the one promoted in its place, or the
    /// same one back. Commands that fail meanwhile tell nothing.
    public func onShardChange(_ handler: @escaping @Sendable (ClusterShardChange) -> Void) {
        shards.onChange(handler)
    }

    /// The primary serving `key` now, per the map (refreshed first when there is none).
    public func node(for key: [UInt8]) async throws(RedisError) -> ClusterSlotMap.Node {
        let map = try await currentMap()
        let slot = HashSlot.of(key)
        guard let node = map.primary(of: slot) else {
            refreshSoon()
            var error = RedisError.connection("no primary serves slot \(slot) now")
            let known = state.withLock { $0.known }
            if let last = known.primary(of: slot) {
                error = error.from(last.description)
                shards.failed(last, in: known, error: error)
            }
            throw error
        }
        return node
    }

    @discardableResult
    public func send(_ command: [[UInt8]]) async throws(RedisError) -> RESPValue {
        var target = try await node(of: command)
        var asking = false
        for _ in 0..<Self.maxRedirects {
            do throws(RedisError) {
                if asking {
                    let replies = try await client(target).pipeline([[Array("ASKING".utf8)], command])
                    guard replies.count == 2 else { throw .unexpectedReply("\(replies)") }
                    answered(by: target)
                    if case .error(let message) = replies[1] { throw .server(message) }
                    return replies[1]
                }
                let reply = try await client(target).send(command)
                answered(by: target)
                return reply
            } catch {
                guard error.isServerError else {
                    // The node may be gone: a failover promotes its replica, which the map
                    // learns from the nodes still up.
                    failed(target, error)
                    throw error
                }
                switch ClusterRedirect(error.message) {
                case .moved(let node):
                    refreshSoon()
                    (target, asking) = (node, false)
                case .ask(let node):
                    (target, asking) = (node, true)
                case nil:
                    guard error.message.hasPrefix("TRYAGAIN") || error.message.hasPrefix("CLUSTERDOWN") else {
                        throw error
                    }
                    refreshSoon()
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
        }
        throw .server("too many cluster redirections")
    }

    /// Splits `commands` by node and sends each node's part in one round trip, all at once.
    /// A command answered with `MOVED` or `ASK` is sent again on its own where it is sent.
    public func pipeline(_ commands: [[[UInt8]]]) async throws(RedisError) -> [RESPValue] {
        guard !commands.isEmpty else { return [] }
        var parts: [ClusterSlotMap.Node: [Int]] = [:]
        for (index, command) in commands.enumerated() {
            parts[try await node(of: command), default: []].append(index)
        }
        let sent = await withTaskGroup(
            of: (ClusterSlotMap.Node, [Int], Result<[RESPValue], RedisError>).self
        ) { group in
            for (node, indexes) in parts {
                let client = client(node)
                group.addTask {
                    do throws(RedisError) {
                        return (node, indexes, .success(try await client.pipeline(indexes.map { commands[$0] })))
                    } catch {
                        return (node, indexes, .failure(error))
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        var replies = [RESPValue](repeating: .bulkString(nil), count: commands.count)
        for (node, indexes, result) in sent {
            let values: [RESPValue]
            switch result {
            case .success(let replies):
                values = replies
                answered(by: node)
            case .failure(let error):
                failed(node, error)
                throw error
            }
            guard values.count == indexes.count else { throw .unexpectedReply("\(values.count) replies") }
            for (index, value) in zip(indexes, values) { replies[index] = value }
        }
        for index in replies.indices {
            guard case .error(let message) = replies[index], ClusterRedirect(message) != nil else { continue }
            do throws(RedisError) {
                replies[index] = try await send(commands[index])
            } catch {
                guard error.isServerError else { throw error }
                replies[index] = .error(error.message)
            }
        }
        return replies
    }

    /// `SPUBLISH`: the message reaches the subscribers of the shard that owns `channel`.
    public func publish(_ channel: String, _ payload: [UInt8]) async throws(RedisError) {
        try await send([Array("SPUBLISH".utf8), Array(channel.utf8), payload])
    }

    public func close() async {
        let clients = state.withLock { state in
            defer { state.clients = [:] }
            return Array(state.clients.values)
        }
        for client in clients { await client.close() }
    }

    /// The slot map, refreshed now when there is none, in the background when it is old.
    func currentMap() async throws(RedisError) -> ClusterSlotMap {
        // While a shard is lost, the map is read again at least every `lostRefreshInterval`: the
        // promotion of its replica shows there.
        let interval = shards.hasLost ? Self.lostRefreshInterval : Self.refreshInterval
        let (map, stale) = state.withLock { state -> (ClusterSlotMap?, Bool) in
            let stale = state.refreshedAt.map { ContinuousClock.now - $0 > interval } ?? true
            return (state.map, stale)
        }
        if let map {
            if stale { refreshSoon() }
            return map
        }
        return try await refresh()
    }

    /// Reads the slot map again (one refresh at a time; callers meanwhile join it).
    @discardableResult
    public func refresh() async throws(RedisError) -> ClusterSlotMap {
        let task = state.withLock { state in
            if let task = state.refreshing { return task }
            let known = Array(state.map?.nodes ?? [])
            let task = Task { await self.readMap(asking: known + self.seeds) }
            state.refreshing = task
            return task
        }
        let result = await task.value
        state.withLock { state in
            guard state.refreshing == task else { return }
            state.refreshing = nil
            if case .success(let map) = result {
                state.map = map
                state.known = map.keepingPrimaries(of: state.known)
                state.refreshedAt = .now
            }
        }
        let map = try result.get()
        pingLostShards(in: map)
        return map
    }

    /// Pings the primaries `map` names for lost shards: one that answers brings its shard back
    /// without waiting for a command of the store to reach it.
    private func pingLostShards(in map: ClusterSlotMap) {
        for node in shards.primaries(in: map) {
            let client = client(node)
            Task {
                guard (try? await client.send(["PING"])) != nil else { return }
                self.shards.answered(by: node, in: map)
            }
        }
    }

    /// `node` answered a command: a lost shard it serves is back.
    private func answered(by node: ClusterSlotMap.Node) {
        guard shards.hasLost, let map = slotMap else { return }
        shards.answered(by: node, in: map)
    }

    /// `node` failed a command (not with an error answer): its shard is lost, and the map is
    /// read again (a failover may have promoted its replica).
    private func failed(_ node: ClusterSlotMap.Node, _ error: RedisError) {
        shards.failed(node, in: state.withLock { $0.known }, error: error)
        refreshSoon()
    }

    /// Starts a refresh unless one runs.
    func refreshSoon() {
        Task { _ = try? await self.refresh() }
    }

    /// The map from the first of `nodes` that answers.
    private func readMap(asking nodes: [ClusterSlotMap.Node]) async -> Result<ClusterSlotMap, RedisError> {
        var last = RedisError.connection("no cluster node to ask for the slot map")
        var asked: Set<ClusterSlotMap.Node> = []
        for node in nodes where asked.insert(node).inserted {
            let client = client(node)
            do throws(RedisError) {
                let map: ClusterSlotMap?
                do throws(RedisError) {
                    map = ClusterSlotMap.shards(
                        try await client.send(["CLUSTER", "SHARDS"]), tls: configuration.tls != nil,
                        fallbackHost: node.host)
                } catch let error where error.isServerError {
                    map = ClusterSlotMap.slots(try await client.send(["CLUSTER", "SLOTS"]), fallbackHost: node.host)
                }
                guard let map, !map.nodes.isEmpty else { throw .unexpectedReply("no slot map from \(node)") }
                return .success(map)
            } catch {
                // No node is to blame alone: the map could be read from none.
                last = error
                last.node = nil
            }
        }
        return .failure(last)
    }

    /// The node a command goes to: its key's primary, or any node for a command without a key.
    private func node(of command: [[UInt8]]) async throws(RedisError) -> ClusterSlotMap.Node {
        if let key = HashSlot.key(of: command) { return try await node(for: key) }
        guard let any = try await currentMap().nodes.first else { throw .connection("the cluster has no primary") }
        return any
    }

    /// The connection to `node`, made once.
    func client(_ node: ClusterSlotMap.Node) -> RedisClient {
        state.withLock { state in
            if let client = state.clients[node] { return client }
            var configuration = self.configuration
            configuration.host = node.host
            configuration.port = node.port
            let client = RedisClient(configuration, initialBackoff: initialBackoff, maxBackoff: maxBackoff)
            state.clients[node] = client
            return client
        }
    }
}
