import FolioEngine

extension ConfigurationReader {
    /// Positions kept for the checks across routes.
    private struct Placed {
        var route: Configuration.Route
        var index: Int
        var nameLocation: ConfigLocation
        var pathLocation: ConfigLocation
    }

    mutating func routes(
        _ entry: ConfigEntry, defaults: Configuration.PagingSettings, cache: Configuration.CacheSettings
    ) -> [Configuration.Route] {
        guard let items = elements(entry) else { return [] }
        if items.isEmpty { report("at least one route is required", at: entry.location) }
        var placed: [Placed] = []
        for (index, item) in items.enumerated() {
            if let one = route(item, index: index, defaults: defaults, cache: cache) { placed.append(one) }
        }
        for (position, later) in placed.enumerated() {
            let earlier = placed.prefix(position)
            if let first = earlier.first(where: { $0.route.name == later.route.name }) {
                report(
                    "duplicate route name '\(later.route.name)' (also routes[\(first.index)], line \(first.nameLocation.line))",
                    at: later.nameLocation)
            }
            if let first = earlier.first(where: { $0.route.path.matchesSamePaths(as: later.route.path) }) {
                report(
                    "'\(later.route.path)' matches the same paths as '\(first.route.path)' of routes[\(first.index)] '\(first.route.name)'",
                    at: later.pathLocation)
            }
        }
        return placed.map(\.route)
    }

    private mutating func route(
        _ entry: ConfigEntry, index: Int, defaults: Configuration.PagingSettings, cache: Configuration.CacheSettings
    ) -> Placed? {
        guard let fields = fields(entry) else { return nil }
        var name: String? = nil
        if let e = fields["name"], let text = string(e) {
            if text.isEmpty || !text.unicodeScalars.allSatisfy(Self.isNameScalar) {
                report("route names use letters, digits, '.', '_' and '-' (they become metric labels)", at: e.location)
            } else {
                name = text
            }
        }
        var pattern: RoutePattern? = nil
        if let e = fields["path"], let text = string(e) {
            pattern = parsed(at: e.location, { () throws(ValueSyntaxError) in try RoutePattern(text) })
        }
        var upstream: UpstreamTemplate? = nil
        if let e = fields["upstream"], let text = string(e) {
            upstream = parsed(at: e.location, { () throws(ValueSyntaxError) in try UpstreamTemplate(text) })
            if let upstream, let pattern {
                for missing in Set(upstream.placeholderNames).subtracting(pattern.placeholderNames).sorted() {
                    report("placeholder {\(missing)} does not appear in path '\(pattern.text)'", at: e.location)
                }
            }
        }
        for key in ["name", "path", "upstream"] where fields[key] == nil {
            report("missing required key '\(key)'", at: fields.missing(key))
        }

        let paging = self.paging(fields, base: defaults)
        var items = JSONPointer.root
        if let e = fields["items"], let pointer = pointer(e) { items = pointer }
        let sort = SortSpec(keys: fieldList(fields["sort"], allowingDescending: true))
        let sortable = fieldList(fields["sortable"], allowingDescending: false).map(\.field.text)
        var sectionKey: FieldPath? = nil
        if let e = fields["sectionKey"], let text = nullableString(e), let text {
            sectionKey = field(text, at: e.location)
        }
        var idField: FieldPath? = nil
        if let e = fields["idField"], let text = nullableString(e), let text {
            idField = field(text, at: e.location)
        }
        var type: String? = nil
        if let e = fields["type"], let text = nullableString(e), let text {
            if text.isEmpty { report("type must not be empty (null: the route's name)", at: e.location) }
            type = text
        }
        // Dialects that name items by id need the field holding it (docs/CONFIG.md, "`dialect`").
        if paging.dialect.needsIDs, idField == nil, fields["idField"].map({ !isNull($0.node) }) != true {
            report(
                "dialect '\(paging.dialect.name)' names each item by its id: set idField",
                at: fields["dialect"]?.location ?? fields.missing("idField"))
        }
        // The dialect's names (after renames) are Folio's own parameters on this route (docs/CONFIG.md, "Grammar and
        // validation").
        let reserved = paging.dialect.parameterNames(paging.params) + Configuration.Route.fixedParameterNames
        let groupable = fieldList(fields["groupable"], allowingDescending: false, reserved: reserved).map(\.field)
        let filterable = fieldList(fields["filterable"], allowingDescending: false, reserved: reserved).map(\.field)
        let searchable = fieldList(fields["searchable"], allowingDescending: false).map(\.field)
        var vary: [String] = []
        if let e = fields["vary"], let list = strings(e) {
            for item in list {
                if Self.isToken(item.text) {
                    vary.append(item.text)
                } else {
                    report("'\(item.text)' is not a header name", at: item.location)
                }
            }
        }
        var forwardQuery: [String] = []
        if let e = fields["forwardQuery"], let list = strings(e) {
            for item in list {
                if item.text.isEmpty {
                    report("a parameter name cannot be empty", at: item.location)
                } else if reserved.contains(item.text) {
                    report(
                        "'\(item.text)' is one of Folio's own parameters on this route, so it cannot be forwarded",
                        at: item.location)
                } else {
                    forwardQuery.append(item.text)
                }
            }
        }
        var authorized = Configuration.Authorization.bypass
        if let e = fields["authorized"], let value = choice(e, Configuration.Authorization.self) { authorized = value }
        var upstreamPaging: Configuration.UpstreamPaging? = nil
        if let e = fields["upstreamPaging"], !isNull(e.node) { upstreamPaging = self.upstreamPaging(e) }
        var routeCache = cache
        if let e = fields["cache"] { routeCache = self.cache(e, base: cache, global: false) }

        guard let name, let pattern, let upstream, let nameEntry = fields["name"], let pathEntry = fields["path"] else {
            return nil
        }
        var route = Configuration.Route(
            name: name, path: pattern, upstream: upstream, items: items, sort: sort, sortable: sortable,
            sectionKey: sectionKey, groupable: groupable, vary: vary, forwardQuery: forwardQuery,
            authorized: authorized, upstreamPaging: upstreamPaging, paging: paging, cache: routeCache)
        route.filterable = filterable
        route.searchable = searchable
        route.idField = idField
        route.type = type
        return Placed(route: route, index: index, nameLocation: nameEntry.location, pathLocation: pathEntry.location)
    }

    /// A list of item fields (`sort` entries may start with `-`); names in `reserved` are
    /// refused because they would be read as Folio's own query parameters.
    private mutating func fieldList(
        _ entry: ConfigEntry?, allowingDescending: Bool, reserved: [String] = []
    ) -> [SortKey] {
        guard let entry, let list = strings(entry) else { return [] }
        var result: [SortKey] = []
        for item in list {
            let descending = allowingDescending && item.text.hasPrefix("-")
            let text = descending ? String(item.text.dropFirst()) : item.text
            guard let field = field(text, at: item.location) else { continue }
            if reserved.contains(text) {
                report(
                    "'\(text)' is one of Folio's own parameters on this route, so it cannot be a filter",
                    at: item.location)
            } else {
                result.append(SortKey(field, descending: descending))
            }
        }
        return result
    }

    /// A field of an item: a top-level member name, or a JSON Pointer when it starts with `/`.
    /// A leading `-` is refused because `sort` and `?sort=` use it for descending.
    private mutating func field(_ text: String, at location: ConfigLocation) -> FieldPath? {
        if text.hasPrefix("-") {
            report("a field name cannot start with '-' (that marks descending order in sort)", at: location)
            return nil
        }
        do {
            return try FieldPath(text)
        } catch {
            report(text.isEmpty ? "a field name cannot be empty" : error.detail, at: location)
            return nil
        }
    }

    /// A JSON Pointer (RFC 6901), parsed by the engine's one parser.
    private mutating func pointer(_ entry: ConfigEntry) -> JSONPointer? {
        guard let text = string(entry) else { return nil }
        do {
            return try JSONPointer(text)
        } catch {
            report(error.detail, at: entry.location)
            return nil
        }
    }

    private mutating func upstreamPaging(_ entry: ConfigEntry) -> Configuration.UpstreamPaging? {
        guard let fields = fields(entry) else { return nil }
        var style: Configuration.UpstreamPaging.Style? = nil
        if let e = fields["style"] {
            style = choice(e, Configuration.UpstreamPaging.Style.self)
        } else {
            report("missing required key 'style' (linkHeader, nextField, page or offset)", at: fields.missing("style"))
        }
        var paging = Configuration.UpstreamPaging(style: style ?? .linkHeader)
        if let e = fields["nextField"], let pointer = pointer(e) { paging.nextField = pointer }
        for key in ["pageParam", "offsetParam", "sizeParam"] {
            guard let e = fields[key], let text = parameterName(e) else { continue }
            switch key {
            case "pageParam": paging.pageParam = text
            case "offsetParam": paging.offsetParam = text
            default: paging.sizeParam = text
            }
        }
        if let e = fields["size"], let n = atLeast(1, int(e), e) { paging.size = n }
        if let e = fields["firstPage"], let n = atLeast(0, int(e), e) { paging.firstPage = n }
        if let e = fields["totalField"], !isNull(e.node), let pointer = pointer(e) { paging.totalField = pointer }
        if let e = fields["maxPages"], let n = atLeast(1, int(e), e) { paging.maxPages = n }
        if let e = fields["concurrency"], let n = int(e) {
            if (1...Configuration.UpstreamPaging.maxConcurrency).contains(n) {
                paging.concurrency = n
            } else {
                report(
                    "concurrency must be 1...\(Configuration.UpstreamPaging.maxConcurrency), got \(n)", at: e.location)
            }
        }
        return style == nil ? nil : paging
    }

    /// Route names end up in metric labels and `?route=` values: keep them plain.
    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
    }

    /// An HTTP field name (RFC 9110 token).
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                        || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0))
            }
    }
}
