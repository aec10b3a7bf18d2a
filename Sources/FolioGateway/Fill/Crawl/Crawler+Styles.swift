import FolioEngine
import Foundation

/// Where each style's pages are: the first URL, the stepped URLs of `page` and `offset`, and the
/// followed links of `linkHeader` and `nextField`.
extension Crawler {
    /// The configured URL, plus the first page (or offset 0) and the size for the stepping styles.
    var firstURL: String {
        switch paging.style {
        case .linkHeader, .nextField: url
        case .page, .offset: steppedURL(position: 0)
        }
    }

    /// The URL of a stepping style at `position`: the page number `firstPage + position` for
    /// `page`, the offset `position` for `offset`.
    func steppedURL(position: Int) -> String {
        switch paging.style {
        case .page:
            Self.setting([(paging.pageParam, paging.firstPage + position), (paging.sizeParam, paging.size)], in: url)
        case .offset, .linkHeader, .nextField:
            Self.setting([(paging.offsetParam, position), (paging.sizeParam, paging.size)], in: url)
        }
    }

    /// The page to fetch after the last one recorded in `state`, or nil when the list is complete.
    ///
    /// `page` and `offset` stop at an empty page or one shorter than the first page (so an
    /// upstream that caps its page size below `size` is still crawled to the end); the others
    /// stop when the page names no next one.
    func nextURL(after head: UpstreamHead, body: IndexedBody, nextPointer: JSONPointer?, state: CrawlState) throws
        -> String?
    {
        switch paging.style {
        case .page:
            guard body.itemCount > 0, body.itemCount >= state.firstLength else { return nil }
            return steppedURL(position: state.pages)
        case .offset:
            guard body.itemCount > 0, body.itemCount >= state.firstLength else { return nil }
            return steppedURL(position: state.items)
        case .linkHeader:
            guard let target = LinkHeader(head.headers["link"]).next else { return nil }
            return try follow(target, from: head.url, state: state)
        case .nextField:
            guard let nextPointer else { return nil }
            switch body.value(at: nextPointer) {
            case .absent, .null, .string(""):
                return nil
            case .string(let target):
                return try follow(target, from: head.url, state: state)
            case .integer, .other:
                throw FolioError.crawlPageFailed(
                    "Page \(state.pages) has no URL string at nextField '\(nextPointer)'.")
            }
        }
    }

    /// A next link resolved against the page that gave it, checked before anything is sent:
    /// the same scheme, host and port as the configured upstream, and not a page already seen.
    func follow(_ target: String, from base: String, state: CrawlState) throws -> String {
        let next: String
        do {
            next = try SameOriginLink.resolve(target, from: base, within: state.origin)
        } catch .unusable {
            throw FolioError.crawlBadNextLink(page: state.pages)
        } catch .foreignOrigin {
            throw FolioError.crawlForeignOrigin(page: state.pages)
        }
        guard !state.visited.contains(next) else { throw FolioError.crawlLoop(page: state.pages) }
        return next
    }

    /// `url` with each named query parameter set to its value: earlier occurrences of the name
    /// are removed, the others keep their order, and the new ones are appended.
    ///
    /// Works on bytes, not `Character`s: a combining mark after `&` or `=` would otherwise
    /// join the separator into one grapheme and hide it.
    static func setting(_ parameters: [(name: String, value: Int)], in url: String) -> String {
        var base = Array(url.utf8)
        if let hash = base.firstIndex(of: UInt8(ascii: "#")) { base.removeSubrange(hash...) }
        var query: [ArraySlice<UInt8>] = []
        if let mark = base.firstIndex(of: UInt8(ascii: "?")) {
            query = base[(mark + 1)...].split(separator: UInt8(ascii: "&"))
            base.removeSubrange(mark...)
        }
        let names = parameters.map { Array(URIText.escapingComponent($0.name).utf8) }
        query.removeAll { component in
            let name = component.prefix { $0 != UInt8(ascii: "=") }
            return names.contains { $0.elementsEqual(name) }
        }
        for (name, parameter) in zip(names, parameters) {
            query.append(ArraySlice(name + Array("=\(parameter.value)".utf8)))
        }
        let joined = query.joined(separator: [UInt8(ascii: "&")])
        return String(decoding: base + [UInt8(ascii: "?")] + joined, as: UTF8.self)
    }
}
