/// Which primary serves each hash slot of a Redis Cluster, as `CLUSTER SHARDS` (Redis 7) or
/// `CLUSTER SLOTS` (older) tells it.
public struct ClusterSlotMap: Sendable, Equatable {
    /// A node's address as the cluster announces it.
    public struct Node: Sendable, Hashable, CustomStringConvertible {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        /// `host:port`, as `MOVED` and `ASK` name a node.
        public init?(_ text: Substring) {
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]) else {
                return nil
            }
            self.init(host: String(text[..<colon]), port: port)
        }

        public var description: String { "\(host):\(port)" }
    }

    /// The primary of each slot (nil: no primary serves it now).
    public internal(set) var primaries: [Node?] = Array(repeating: nil, count: HashSlot.count)

    /// The primaries, each once.
    public var nodes: Set<Node> { Set(primaries.compactMap { $0 }) }

    public init() {}

    /// The primary of `slot`.
    public func primary(of slot: Int) -> Node? { primaries[slot] }

    mutating func assign(_ slots: ClosedRange<Int>, to node: Node) {
        guard slots.lowerBound >= 0, slots.upperBound < HashSlot.count else { return }
        for slot in slots { primaries[slot] = node }
    }

    /// The map in a `CLUSTER SHARDS` answer: per shard its slot ranges and its nodes, of which
    /// the online primary serves them. `tls` picks each node's `tls-port`. A node announced
    /// without an address (`?`, empty) is reached at `fallbackHost`, the node that answered.
    public static func shards(_ reply: RESPValue, tls: Bool, fallbackHost: String) -> ClusterSlotMap? {
        guard case .array(let shards?) = reply else { return nil }
        var map = ClusterSlotMap()
        for shard in shards {
            let fields = pairs(shard)
            guard case .array(let bounds?)? = fields["slots"], case .array(let nodes?)? = fields["nodes"] else {
                continue
            }
            let primary = nodes.lazy.map(pairs).first {
                $0["role"]?.string == "master" && ($0["health"]?.string ?? "online") == "online"
            }
            guard let primary, let port = (tls ? primary["tls-port"] : primary["port"])?.integer else { continue }
            let announced = primary["endpoint"]?.string ?? primary["ip"]?.string ?? ""
            let host = announced.isEmpty || announced == "?" ? fallbackHost : announced
            for index in stride(from: 0, to: bounds.count - 1, by: 2) {
                guard let low = bounds[index].integer, let high = bounds[index + 1].integer, low <= high else {
                    continue
                }
                map.assign(Int(low)...Int(high), to: Node(host: host, port: Int(port)))
            }
        }
        return map
    }

    /// The map in a `CLUSTER SLOTS` answer: per range its bounds, then its primary first.
    public static func slots(_ reply: RESPValue, fallbackHost: String) -> ClusterSlotMap? {
        guard case .array(let ranges?) = reply else { return nil }
        var map = ClusterSlotMap()
        for range in ranges {
            guard case .array(let fields?) = range, fields.count >= 3, let low = fields[0].integer,
                let high = fields[1].integer, low <= high, case .array(let node?) = fields[2], node.count >= 2,
                let port = node[1].integer
            else { continue }
            let announced = node[0].string ?? ""
            let host = announced.isEmpty || announced == "?" ? fallbackHost : announced
            map.assign(Int(low)...Int(high), to: Node(host: host, port: Int(port)))
        }
        return map
    }

    /// A RESP2 map (a flat array of names and values) by name.
    private static func pairs(_ value: RESPValue) -> [String: RESPValue] {
        guard case .array(let items?) = value else { return [:] }
        var fields: [String: RESPValue] = [:]
        for index in stride(from: 0, to: items.count - 1, by: 2) {
            if let name = items[index].string { fields[name] = items[index + 1] }
        }
        return fields
    }
}

/// A cluster's redirection in an error answer: `MOVED slot host:port` (the slot lives there
/// now) or `ASK slot host:port` (this one command goes there, after `ASKING`).
enum ClusterRedirect: Equatable {
    case moved(ClusterSlotMap.Node)
    case ask(ClusterSlotMap.Node)

    init?(_ message: String) {
        let words = message.split(separator: " ")
        guard words.count == 3, let node = ClusterSlotMap.Node(words[2]) else { return nil }
        switch words[0] {
        case "MOVED": self = .moved(node)
        case "ASK": self = .ask(node)
        default: return nil
        }
    }
}
