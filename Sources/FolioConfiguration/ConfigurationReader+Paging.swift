import FolioEngine

extension ConfigurationReader {
    /// The keys of `params:`, in the order of `ParamNames.all`.
    static let paramKeys = ["pageSize", "offset", "page"]

    /// The paging keys present in `fields` (the `defaults:` mapping or a route) merged over
    /// `base`. Cross-key rules are checked only when this mapping sets one of the keys involved,
    /// so a bad `defaults:` is reported once, not again on every route.
    mutating func paging(_ fields: ConfigFields, base: Configuration.PagingSettings) -> Configuration.PagingSettings {
        var paging = base
        // A size already reported is not compared again (with the default it fell back to).
        var unread = false
        if let e = fields["pageSize"] {
            if let n = atLeast(1, int(e), e) { paging.pageSize = n } else { unread = true }
        }
        if let e = fields["maxPageSize"] {
            if let n = atLeast(1, int(e), e) { paging.maxPageSize = n } else { unread = true }
        }
        if !unread, paging.maxPageSize < paging.pageSize,
            let e = fields["maxPageSize"] ?? fields["pageSize"]
        {
            report("maxPageSize (\(paging.maxPageSize)) is below pageSize (\(paging.pageSize))", at: e.location)
        }
        if let e = fields["overMaxPageSize"], let policy = choice(e, Configuration.OverMaxPolicy.self) {
            paging.overMaxPageSize = policy
        }
        if let e = fields["params"] {
            paging.params = params(e, base: paging.params)
        }
        if let e = fields["pageBase"], let n = int(e) {
            if n == 0 || n == 1 {
                paging.pageBase = n
            } else {
                report("pageBase must be 0 or 1, got \(n)", at: e.location)
            }
        }
        if let e = fields["envelope"], let b = bool(e) { paging.envelope = b }
        if let e = fields["itemsKey"], let key = string(e) {
            if key.isEmpty {
                report("itemsKey cannot be empty", at: e.location)
            } else if key == "paging" {
                report("itemsKey cannot be 'paging' (the envelope's metadata member)", at: e.location)
            } else {
                paging.itemsKey = key
            }
        }
        if let e = fields["dialect"], let name = string(e) {
            if let dialect = Dialect.named(name) {
                paging.dialect = dialect
            } else {
                report(
                    "unknown dialect '\(name)'; expected one of \(Dialect.all.map(\.name).joined(separator: ", "))",
                    at: e.location)
            }
        }
        return paging
    }

    /// A query parameter's name: any non-empty text.
    mutating func parameterName(_ entry: ConfigEntry) -> String? {
        guard let name = string(entry) else { return nil }
        guard !name.isEmpty else {
            report("a parameter name cannot be empty", at: entry.location)
            return nil
        }
        return name
    }

    /// `params:` merged name by name, then checked as a whole: the three names must be
    /// distinct, non-empty and not one of Folio's other parameters.
    private mutating func params(_ entry: ConfigEntry, base: Configuration.ParamNames) -> Configuration.ParamNames {
        guard let fields = fields(entry) else { return base }
        var names = base
        for key in Self.paramKeys {
            guard let e = fields[key], let name = parameterName(e) else { continue }
            if Configuration.Route.fixedParameterNames.contains(name) {
                report("'\(name)' is already one of Folio's parameters", at: e.location)
                continue
            }
            switch key {
            case "pageSize": names.pageSize = name
            case "offset": names.offset = name
            default: names.page = name
            }
        }
        let all = Array(zip(Self.paramKeys, names.all))
        for (index, (key, name)) in all.enumerated() {
            guard let earlier = all.prefix(index).first(where: { $0.1 == name }) else { continue }
            let location = fields[key]?.location ?? fields[earlier.0]?.location ?? entry.location
            report("'\(name)' names both \(earlier.0) and \(key)", at: location)
        }
        return names
    }
}
