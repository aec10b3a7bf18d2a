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
        let names = options.names
        var seen = Set<String>()
        var pageSize: Int?
        var offset: Int?
        var page: Int?
        var request = ListRequest(pageSize: options.defaultPageSize)

        for parameter in parameters {
            let key = parameter.key
            let role = Role(key: key, names: names, filterable: options.filterable)
            if role == .other {
                request.kept.append(parameter)
                continue
            }
            // `?FIELD=a&FIELD=b`: any of the values.
            guard role == .filter || seen.insert(key).inserted else { throw .duplicateParameter(key) }
            switch role {
            case .pageSize: pageSize = try number(parameter)
            case .offset: offset = try number(parameter)
            case .page: page = try number(parameter)
            case .snapshot: request.snapshot = parameter.value
            case .metadataOnly: request.metadataOnly = true
            case .sort:
                request.sort = parameter.value
                request.kept.append(parameter)
            case .groupBy:
                request.groupBy = parameter.value
                request.kept.append(parameter)
            case .beginsWith:
                guard !parameter.value.isEmpty else { throw .invalidParameter("beginsWith must not be empty") }
                request.beginsWith = parameter.value
                request.kept.append(parameter)
            case .filter:
                request.filters.append(Filter(field: key, value: parameter.value))
                request.kept.append(parameter)
            case .comparison(let field, let name):
                guard let comparison = Comparison(rawValue: name), comparison != .equal else {
                    let known = Comparison.allCases.filter { $0 != .equal }.map(\.rawValue).joined(separator: ", ")
                    throw .invalidParameter("unknown filter operator '\(name)' in '\(key)'; known: \(known)")
                }
                request.filters.append(Filter(field: field, value: parameter.value, comparison: comparison))
                request.kept.append(parameter)
            case .fields:
                request.fields = try fields(parameter)
                request.kept.append(parameter)
            case .search:
                request.q = parameter.value
                request.kept.append(parameter)
            case .other:
                preconditionFailure("handled above")
            }
        }

        if let pageSize {
            guard pageSize > 0 else { throw .invalidParameter("\(names.pageSize) must be at least 1") }
            request.pageSize = try effectivePageSize(pageSize, name: names.pageSize, options: options)
        }
        if offset != nil, page != nil {
            throw .conflictingParameters("\(names.offset) and \(names.page) cannot be used together")
        }
        if let offset { request.offset = offset }
        if let page {
            guard page >= options.pageBase else {
                throw .invalidParameter("\(names.page) must be at least \(options.pageBase), got \(page)")
            }
            let (start, overflow) = (page - options.pageBase).multipliedReportingOverflow(by: request.pageSize)
            guard !overflow, start <= Decimal53.limit else {
                throw .invalidParameter(
                    "\(names.page) \(page) with \(names.pageSize) \(request.pageSize) starts beyond 2^53")
            }
            request.offset = start
            request.style = .page
        }

        if !request.metadataOnly, let rangeHeader, let range = ItemRange.parse(rangeHeader) {
            if offset != nil || page != nil {
                throw .conflictingParameters(
                    "the Range header cannot be used together with \(offset != nil ? names.offset : names.page)")
            }
            let width = try effectivePageSize(range.count, name: "Range", options: options)
            request.offset = range.first
            request.pageSize = width
            request.range = ItemRange(first: range.first, last: range.first + width - 1)
        }
        return request
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

    /// What a parameter key means on this route.
    private enum Role: Equatable {
        case pageSize, offset, page, sort, groupBy, beginsWith, snapshot, metadataOnly, fields, search, filter, other
        /// `FIELD[op]` on a filterable field.
        case comparison(field: String, name: String)

        init(key: String, names: ParameterNames, filterable: [String]) {
            switch key {
            case names.pageSize: self = .pageSize
            case names.offset: self = .offset
            case names.page: self = .page
            case "sort": self = .sort
            case "groupBy": self = .groupBy
            case "beginsWith": self = .beginsWith
            case "snapshot": self = .snapshot
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
                } else {
                    self = .other
                }
            }
        }
    }
}
