extension ConfigurationReader {
    mutating func server(_ entry: ConfigEntry) -> Configuration.Server {
        var server = Configuration.Server()
        guard let fields = fields(entry) else { return server }
        if let e = fields["listen"], let text = string(e) {
            if let address = parsed(at: e.location, { () throws(ValueSyntaxError) in try ListenAddress(text) }) {
                server.listen = address
            }
        }
        if let e = fields["admin"], let text = nullableString(e) {
            if let text {
                if let address = parsed(at: e.location, { () throws(ValueSyntaxError) in try ListenAddress(text) }) {
                    server.admin = address
                }
            } else {
                server.admin = nil
            }
        }
        // Checked whether or not the file names both: the default admin address counts too.
        if let admin = server.admin, admin.clashes(with: server.listen) {
            if let e = fields["admin"] {
                report("\(admin) and server.listen (\(server.listen)) cannot share a port", at: e.location)
            } else if let e = fields["listen"] {
                report(
                    "\(server.listen) and server.admin (\(admin), the default) cannot share a port; move one of them",
                    at: e.location)
            }
        }
        if let e = fields["adminToken"], let text = nullableString(e) {
            if text == "" {
                report("adminToken cannot be empty (use null for no token)", at: e.location)
            } else {
                server.adminToken = text
            }
        }
        if let e = fields["publicBaseURL"], let text = nullableString(e) {
            server.publicBaseURL = text.flatMap { publicBaseURL($0, at: e.location) }
        }
        if let e = fields["trustedProxies"], let items = strings(e) {
            var networks: [CIDR] = []
            for item in items {
                if let network = CIDR(item.text) {
                    networks.append(network)
                } else {
                    report(
                        "'\(item.text)' is not a CIDR (e.g. 10.0.0.0/8, 192.0.2.7, 2001:db8::/32)", at: item.location)
                }
            }
            server.trustedProxies = networks
        }
        if let e = fields["idleTimeout"], let d = positiveDuration(e) { server.idleTimeout = d }
        if let e = fields["shutdownDelay"], let d = duration(e) { server.shutdownDelay = d }
        if let e = fields["drainTimeout"], let d = duration(e) { server.drainTimeout = d }
        if let e = fields["fallbackUpstream"], let text = nullableString(e) {
            server.fallbackUpstream = text.flatMap { fallbackUpstream($0, at: e.location) }
        }
        if let e = fields["cors"], let cors = self.fields(e) {
            if let e = cors["allowOrigins"], let items = strings(e) {
                for item in items where !Self.isOrigin(item.text) {
                    report(
                        "'\(item.text)' is not an origin (scheme://host[:port], no path) or '*'", at: item.location)
                }
                server.cors.allowOrigins = items.map(\.text)
            }
        }
        if let e = fields["compression"], let compression = self.fields(e) {
            if let e = compression["encodings"], let items = strings(e) {
                var codings: [ContentCoding] = []
                for item in items {
                    guard let coding = ContentCoding(rawValue: item.text) else {
                        report(
                            "'\(item.text)' is not a coding Folio compresses with (br, gzip, zstd)", at: item.location)
                        continue
                    }
                    if codings.contains(coding) {
                        report("'\(item.text)' is listed twice", at: item.location)
                    } else {
                        codings.append(coding)
                    }
                }
                server.compression.encodings = codings
            }
            if let e = compression["minBytes"], let n = size(e) { server.compression.minBytes = n }
        }
        if let e = fields["watch"], let watch = self.fields(e) {
            if let e = watch["maxWatchers"], let n = int(e) {
                if n < 0 {
                    report("must be 0 or more (0 refuses every event stream)", at: e.location)
                } else {
                    server.watch.maxWatchers = n
                }
            }
            if let e = watch["heartbeat"], let d = positiveDuration(e) { server.watch.heartbeat = d }
        }
        return server
    }

    /// A duration that must leave time to act (timeouts).
    mutating func positiveDuration(_ entry: ConfigEntry) -> Duration? {
        guard let d = duration(entry) else { return nil }
        guard d > .zero else {
            report("must be greater than 0", at: entry.location)
            return nil
        }
        return d
    }

    /// An `http`/`https` URL without query or fragment; the trailing slash is dropped so links
    /// can be built as base + path.
    private mutating func publicBaseURL(_ text: String, at location: ConfigLocation) -> String? {
        guard let url = parsed(at: location, { () throws(ValueSyntaxError) in try UpstreamURL(text) }) else {
            return nil
        }
        guard !url.path.contains("?") else {
            report("publicBaseURL cannot have a query", at: location)
            return nil
        }
        var result = text
        while result.hasSuffix("/") { result.removeLast() }
        return result
    }

    /// An origin plus optional path prefix; a query would have no sensible place in forwarded
    /// requests.
    private mutating func fallbackUpstream(_ text: String, at location: ConfigLocation) -> UpstreamURL? {
        var trimmed = text
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = parsed(at: location, { () throws(ValueSyntaxError) in try UpstreamURL(trimmed) }) else {
            return nil
        }
        guard !url.path.contains("?") else {
            report("fallbackUpstream cannot have a query (the client's query is forwarded)", at: location)
            return nil
        }
        return url
    }

    /// `*`, or `scheme://host[:port]` as browsers send it in `Origin`.
    static func isOrigin(_ text: String) -> Bool {
        if text == "*" { return true }
        guard let separator = text.firstRange(of: "://") else { return false }
        let scheme = text[..<separator.lowerBound]
        let authority = text[separator.upperBound...]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return false }
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ ".contains($0) }) else { return false }
        return true
    }
}
