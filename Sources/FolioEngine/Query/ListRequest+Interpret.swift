extension ListRequest {
    /// Reads the decoded query and the raw `Range` header value per docs/API.md ("Requests",
    /// "Range requests", "Errors").
    ///
    /// Every problem with Folio's own parameters is a 400 with its own code; parameters the
    /// route does not use (including the default paging names when it renames them) are kept
    /// for links and otherwise ignored.
    public static func interpret(
        _ parameters: [QueryParameter], options: PagingOptions, rangeHeader: String?
    ) throws(FolioError) -> ListRequest {
        let dialect = options.dialect
        let modes = dialect.pagingModes(options.names, options.pageBase)
        // A handful of names each: arrays, not sets (hashing them cost more than the search).
        let pagingNames = modes.flatMap(\.names)
        var seen = SeenKeys()
        // The paging parameters sent, in order; their values are read once the mode is known.
        var paging: [QueryParameter] = []
        var sortValues: [String] = []
        var order: String?
        var filterSearch: String?
        var request = ListRequest(pageSize: options.defaultPageSize)

        /// Reads one of Folio's own parameters (the links keep it unless it is `snapshot`, `since` or
        /// `metadataOnly`).
        func read(_ role: Role, _ parameter: QueryParameter) throws(FolioError) {
            let key = parameter.key
            // `?FIELD=a&FIELD=b`: any of the values.
            guard role == .filter || seen.insert(key) else { throw .duplicateParameter(key) }
            switch role {
            case .snapshot: request.snapshot = parameter.value
            case .since: request.since = parameter.value
            case .metadataOnly: request.metadataOnly = true
            case .groupBy: request.groupBy = parameter.value
            case .beginsWith:
                guard !parameter.value.isEmpty else { throw .invalidParameter("beginsWith must not be empty") }
                request.beginsWith = parameter.value
            case .filter:
                request.filters.append(Filter(field: key, value: parameter.value))
            case .comparison(let field, let name):
                guard let comparison = Comparison(rawValue: name), comparison != .equal else {
                    let known = Comparison.allCases.filter { $0 != .equal }.map(\.rawValue).joined(separator: ", ")
                    throw .invalidParameter(
                        "unknown filter operator '\(DetailText.clip(name))' in '\(DetailText.clip(key))'; known: \(known)"
                    )
                }
                request.filters.append(Filter(field: field, value: parameter.value, comparison: comparison))
            case .fields:
                request.fields = try fields(parameter)
            case .search:
                request.q = parameter.value
            case .other:
                preconditionFailure("handled by the caller")
            }
        }

        for parameter in parameters {
            let key = parameter.key
            if pagingNames.contains(key) {
                guard seen.insert(key) else { throw .duplicateParameter(key) }
                paging.append(parameter)
                continue
            }
            if key == dialect.sort.key {
                guard dialect.sort.repeats || seen.insert(key) else { throw .duplicateParameter(key) }
                sortValues.append(parameter.value)
                request.kept.append(parameter)
                continue
            }
            if key == dialect.sort.orderKey || key == dialect.filter?.key {
                guard seen.insert(key) else { throw .duplicateParameter(key) }
                if let filter = dialect.filter, key == filter.key {
                    let read = try filter.read(parameter.value, options.filterable)
                    request.filters += read.filters
                    filterSearch = read.q
                } else {
                    order = parameter.value
                }
                request.kept.append(parameter)
                continue
            }
            if let aliases = dialect.aliases, let aliased = try aliases(parameter, options) {
                // A dialect's spelling of Folio's filters, `fields` or `q` (JSON:API's `filter[price][gte]`).
                for alias in aliased {
                    let (role, key, value): (Role, String, String)
                    switch alias {
                    case .sort(let text):
                        sortValues.append(text)
                        continue
                    case .moreFields(let text):
                        request.fields =
                            (request.fields ?? [])
                            + (try fields(
                                QueryParameter(raw: parameter.raw, key: parameter.key, value: text, hasValue: true)))
                        continue
                    case .omitTotal:
                        request.omitTotal = true
                        continue
                    case .withTotal:
                        request.withTotal = true
                        continue
                    case .filter(let field, let comparison, let text):
                        guard options.filterable.contains(field) else { continue }
                        (role, key, value) =
                            comparison == .equal
                            ? (.filter, field, text)
                            : (
                                .comparison(field: field, name: comparison.rawValue),
                                "\(field)[\(comparison.rawValue)]", text
                            )
                    case .fields(let text): (role, key, value) = (.fields, "fields", text)
                    case .search(let text): (role, key, value) = (.search, "q", text)
                    case .since(let text): (role, key, value) = (.since, "since", text)
                    }
                    try read(role, QueryParameter(raw: parameter.raw, key: key, value: value, hasValue: true))
                }
                if !aliased.contains(where: { if case .since = $0 { true } else { false } }) {
                    request.kept.append(parameter)
                }
                continue
            }
            let role = Role(key: key, filterable: options.filterable, suffixes: dialect.comparisonSuffixes)
            if role == .other {
                request.kept.append(parameter)
                continue
            }
            try read(role, parameter)
            switch role {
            case .snapshot, .since, .metadataOnly: break
            default: request.kept.append(parameter)
            }
        }
        request.sort = try dialect.sort.read(sortValues, order)
        if let filterSearch {
            guard request.q == nil else {
                throw .conflictingParameters(
                    "q and the q of \(dialect.filter?.key ?? "filter") cannot be used together")
            }
            request.q = filterSearch
        }
        if request.since != nil {
            try checkSince(request, paging: paging, rangeHeader: rangeHeader)
        }
        let mode = try readPaging(paging, modes: modes, options: options, into: &request)

        if !request.metadataOnly, let rangeHeader, let range = ItemRange.parse(rangeHeader),
            !sameWindow(range, mode: mode, paging: paging)
        {
            // A page size beside it is overridden by the range's width; a position clashes.
            if let position = paging.first(where: { $0.key != mode.size }) {
                throw .conflictingParameters("the Range header cannot be used together with \(position.key)")
            }
            let width = try effectivePageSize(range.count, name: "Range", options: options)
            request.offset = range.first
            request.pageSize = width
            request.range = ItemRange(first: range.first, last: range.first + width - 1)
            // Links step from the range's first item (docs/API.md, "The page"); page links can only name
            // aligned offsets, so a dialect that can name any offset does so (DRF's
            // `limit`/`offset`, json-server's `_start`/`_limit`).
            if request.spelling != nil, case .page = mode.position, !range.first.isMultiple(of: width),
                let exact = modes.first(where: { if case .page = $0.position { false } else { true } })
            {
                request.spelling = exact.spelling
                request.style = .offset
            }
        }
        return request
    }

    /// `since` answers the whole view's changes (docs/API.md, "Changes between snapshots"): no
    /// paging parameter, `Range` (a malformed one is ignored, as on pages), `snapshot`, `groupBy` or
    /// `metadataOnly` beside it.
    private static func checkSince(
        _ request: ListRequest, paging: [QueryParameter], rangeHeader: String?
    ) throws(FolioError) {
        if let first = paging.first { throw .sinceCombined(with: first.key) }
        if request.snapshot != nil { throw .sinceCombined(with: "snapshot") }
        if request.groupBy != nil { throw .sinceCombined(with: "groupBy") }
        if request.metadataOnly { throw .sinceCombined(with: "metadataOnly") }
        if let rangeHeader, ItemRange.parse(rangeHeader) != nil { throw .sinceCombined(with: "the Range header") }
    }

    /// Sets the slice and the link spelling from the paging parameters sent: the first of the
    /// dialect's modes that names them all (none sent: the first mode), which it returns.
    private static func readPaging(
        _ paging: [QueryParameter], modes: [PagingMode], options: PagingOptions, into request: inout ListRequest
    ) throws(FolioError) -> PagingMode {
        guard let mode = modes.first(where: { mode in paging.allSatisfy { mode.names.contains($0.key) } }) else {
            // Name the first two sent that no mode takes together (`offset and page`; `_end and
            // _limit`, where `_start` goes with either), not a parameter that fits both.
            let keys = paging.map(\.key)
            var clashing = keys
            search: for (index, first) in keys.enumerated() {
                for second in keys[(index + 1)...]
                where !modes.contains(where: { $0.names.contains(first) && $0.names.contains(second) }) {
                    clashing = [first, second]
                    break search
                }
            }
            throw .conflictingParameters(clashing.joined(separator: " and ") + " cannot be used together")
        }
        func value(_ name: String?) throws(FolioError) -> Int? {
            guard let parameter = paging.first(where: { $0.key == name }) else { return nil }
            return try number(parameter)
        }
        var pageSize = try value(mode.size)
        let sizeName = mode.size ?? ""
        var offset: Int?
        switch mode.position {
        case .offset(let name):
            offset = try value(name)
        case .page(let name, let base):
            request.style = .page
            if let page = try value(name) {
                guard page >= base else { throw .invalidParameter("\(name) must be at least \(base), got \(page)") }
                var size = request.pageSize
                if let pageSize { size = try checkedPageSize(pageSize, name: sizeName, options: options) }
                let (start, overflow) = (page - base).multipliedReportingOverflow(by: size)
                guard !overflow, start <= Decimal53.limit else {
                    throw .invalidParameter("\(name) \(page) with \(sizeName) \(size) starts beyond 2^53")
                }
                offset = start
            }
        case .startEnd(let startName, let endName):
            offset = try value(startName)
            if let end = try value(endName) {
                guard end > offset ?? 0 else {
                    throw .invalidParameter("\(endName) (\(end)) must be greater than \(startName) (\(offset ?? 0))")
                }
                pageSize = end - (offset ?? 0)
            }
        case .cursor(let afterName, let beforeName):
            let after = paging.first { $0.key == afterName }
            let before = paging.first { $0.key == beforeName }
            if after != nil, before != nil {
                throw .conflictingParameters("\(afterName) and \(beforeName) cannot be used together")
            }
            for parameter in [after, before].compactMap({ $0 }) where parameter.value.isEmpty {
                throw .invalidParameter("\(parameter.key) must be the id of an item")
            }
            request.cursor = after.map { .after($0.value) } ?? before.map { .before($0.value) }
        case .range(let name):
            if let parameter = paging.first(where: { $0.key == name }) {
                let (first, last) = try range(parameter)
                offset = first
                pageSize = last - first + 1
            }
        }
        if let pageSize {
            request.pageSize = try checkedPageSize(
                pageSize, name: sizeName.isEmpty ? (paging.first?.key ?? "") : sizeName, options: options)
        }
        if let offset { request.offset = offset }
        request.spelling = options.dialect == .folio ? nil : mode.spelling
        return mode
    }

    /// Whether a `Range: items=a-b` header only repeats the window a `range=[a,b]` parameter
    /// asked for: ra-data-simple-rest sends both (`Range: <resource>=0-24`), so a resource named
    /// `items` would otherwise clash with itself. The parameter then rules (a `200` page).
    private static func sameWindow(
        _ range: ItemRange, mode: PagingMode, paging: [QueryParameter]
    ) -> Bool {
        guard case .range(let name) = mode.position, let parameter = paging.first(where: { $0.key == name }),
            let window = try? Self.range(parameter)
        else { return false }
        return range.first == window.0 && range.last == window.1
    }

    /// `range=[first,last]`: two integers of at most 2^53, `first <= last`.
    private static func range(_ parameter: QueryParameter) throws(FolioError) -> (Int, Int) {
        guard case .array(let bounds)? = QueryJSON.parse(parameter.value), bounds.count == 2,
            case .number(let firstText) = bounds[0], case .number(let lastText) = bounds[1],
            let first = Decimal53.parse(firstText), let last = Decimal53.parse(lastText), first <= last
        else {
            throw .invalidParameter(
                "\(parameter.key) must be a JSON array [first,last] of two non-negative integers with first <= last, "
                    + "got \(DetailText.clip(parameter.value))")
        }
        return (first, last)
    }

    /// At least 1, then clamped or refused above `maxPageSize`.
    private static func checkedPageSize(_ size: Int, name: String, options: PagingOptions) throws(FolioError) -> Int {
        guard size > 0 else { throw .invalidParameter("\(name) must be at least 1") }
        return try effectivePageSize(size, name: name, options: options)
    }

    /// `fields=id,name`: names of top-level members, none empty.
    private static func fields(_ parameter: QueryParameter) throws(FolioError) -> [String] {
        let names = parameter.value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !parameter.value.isEmpty, !names.contains("") else {
            throw .invalidParameter(
                "fields must list member names separated by commas, none empty; got \"\(DetailText.clip(parameter.value))\""
            )
        }
        return names
    }

    private static func number(_ parameter: QueryParameter) throws(FolioError) -> Int {
        guard let value = Decimal53.parse(parameter.value) else {
            throw .invalidParameter(
                "\(parameter.key) must be a non-negative integer of at most 2^53 written in digits only, "
                    + "got \"\(DetailText.clip(parameter.value))\"")
        }
        return value
    }

    private static func effectivePageSize(
        _ size: Int, name: String, options: PagingOptions
    ) throws(FolioError) -> Int {
        guard size > options.maxPageSize else { return size }
        switch options.overMax {
        case .clamp: return options.maxPageSize
        case .reject: throw .pageSizeTooLarge(name: name, requested: size, maximum: options.maxPageSize)
        }
    }

    /// What a parameter key means on this route, besides the dialect's paging and sort names.
    private enum Role: Equatable {
        case groupBy, beginsWith, snapshot, since, metadataOnly, fields, search, filter, other
        /// `FIELD[op]` (or a dialect's `FIELD_op`) on a filterable field.
        case comparison(field: String, name: String)

        init(key: String, filterable: [String], suffixes: [(suffix: String, comparison: Comparison)]) {
            switch key {
            case "groupBy": self = .groupBy
            case "beginsWith": self = .beginsWith
            case "snapshot": self = .snapshot
            case "since": self = .since
            case "metadataOnly": self = .metadataOnly
            case "fields": self = .fields
            case "q": self = .search
            default:
                if filterable.contains(key) {
                    self = .filter
                } else if key.hasSuffix("]"), let open = key.firstIndex(of: "["),
                    filterable.contains(String(key[..<open]))
                {
                    self = .comparison(
                        field: String(key[..<open]),
                        name: String(key[key.index(after: open)..<key.index(before: key.endIndex)]))
                } else if let match = suffixes.first(where: { key.hasSuffix($0.suffix) }),
                    filterable.contains(String(key.dropLast(match.suffix.count)))
                {
                    self = .comparison(field: String(key.dropLast(match.suffix.count)), name: match.comparison.rawValue)
                } else {
                    self = .other
                }
            }
        }
    }
}

/// Folio's own parameter names met so far, for duplicates: a few per request (their number is
/// bounded by the route's config, not by the query).
private struct SeenKeys {
    private var keys: [String] = []

    /// Adds `key`; false when it was there already.
    mutating func insert(_ key: String) -> Bool {
        if keys.contains(key) { return false }
        keys.append(key)
        return true
    }
}
