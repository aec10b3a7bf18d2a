import Foundation

/// One section of the index of docs/API.md, "Section index": `offset` is where it starts in the list sorted by the
/// section's key, so "scroll to section" is `list.setVisibleRange(section.offset..<…)`.
public struct Section: Sendable, Equatable, Decodable {
    /// The folded first letter (`A`, `Й`, `#`), or a `groupBy=FIELD` value as text; nil for
    /// the last section of items without that field.
    public var title: String?
    /// The section's own filtered list (`beginsWith=` or `FIELD=`), relative as Folio wrote it.
    public var url: String?
    public var count: Int
    public var offset: Int

    public init(title: String?, url: String?, count: Int, offset: Int) {
        self.title = title
        self.url = url
        self.count = count
        self.offset = offset
    }
}

/// How a section index groups the list.
public enum Grouping: Sendable, Equatable {
    /// By the folded first letter of the route's `sectionKey`.
    case alphabetical
    /// By the exact value of a `groupable` field.
    case field(String)

    var parameter: String {
        switch self {
        case .alphabetical: "alphabetical"
        case .field(let name): name
        }
    }
}

/// The sections of a list, in list order, with look-ups both ways.
public struct SectionIndex: Sendable, Equatable {
    public var sections: [Section]

    public init(sections: [Section]) {
        self.sections = sections
    }

    /// Where the section of `title` starts (scroll to it), or nil if the list has none. Any
    /// spelling that folds to the section's title finds it (`é`, `e` and `E` find `E`; `1` finds
    /// `#`; `й` finds `Й`): see `title(of:)`.
    public func offset(of title: String) -> Int? {
        let folded = Self.title(of: title)
        return sections.first { $0.title == title || $0.title == folded }?.offset
    }

    /// The section that holds list index `index` (for a sticky header or a side index).
    public func section(containing index: Int) -> Section? {
        var low = 0
        var high = sections.count
        while low < high {
            let middle = (low + high) / 2
            if sections[middle].offset <= index { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let section = sections[low - 1]
        return index < section.offset + section.count ? section : nil
    }
}

extension ListEndpoint {
    /// GETs `?groupBy=…&metadataOnly`, from `snapshot` when given (so offsets match the list's).
    public func sections(_ grouping: Grouping = .alphabetical, snapshot: String? = nil) async throws -> SectionIndex {
        let query = [
            URLQueryItem(name: "groupBy", value: grouping.parameter), URLQueryItem(name: "metadataOnly", value: nil),
        ]
        let (data, _) = try await get(url(adding: query + Self.pin(snapshot)))
        do {
            return SectionIndex(sections: try JSONDecoder().decode([Section].self, from: data))
        } catch {
            throw ClientError.malformed("not a section index: \(error)")
        }
    }
}

extension PagedList {
    /// The list's section index, from the list's own snapshot. For `.field`, offsets are those of
    /// the list sorted by that field: use it on a list whose URL sorts so.
    ///
    /// When the list's snapshot has expired (410), the list resets as a page's 410 makes it do
    /// (`.reset(count:)`), and the index comes from the new snapshot, so its offsets match the
    /// rows the list now shows. If that reset fails, its error is thrown.
    public func sections(_ grouping: Grouping = .alphabetical) async throws -> SectionIndex {
        let (pinned, generation) = state.withLock { ($0.snapshot, $0.generation) }
        do {
            return try await endpoint.sections(grouping, snapshot: pinned)
        } catch let gone as ClientError where gone.code == .snapshotGone {
            try await followReset(after: gone, generation: generation)
            return try await endpoint.sections(grouping, snapshot: snapshot)
        }
    }

    /// Returns once the list has left generation `generation`: resets it after `gone` unless a
    /// reset is under way or done, then waits for that one.
    func followReset(after gone: ClientError, generation: Int) async throws {
        var changes = observe().makeAsyncIterator()
        await reset(after: gone, generation: generation)
        while true {
            if state.withLock({ $0.generation }) != generation { return }
            // A failed reset reports `.pageFailed(page: 0, …)`, seen here even if it came first.
            switch await changes.next() {
            case nil: throw CancellationError()
            case .pageFailed(page: 0, let error)?: throw error
            default: continue
            }
        }
    }
}
