import Foundation

/// A link an upstream gave (a redirect's `Location`, a crawl's next page) turned into the URL
/// Folio requests next, decided before anything is sent: resolved against the page that gave
/// it, within the configured upstream's origin, without fragment or user info.
enum SameOriginLink {
    enum Refusal: Error, Equatable {
        /// Not a URL, even relative to the page that gave it.
        case unusable
        /// Another scheme, host or port than the configured upstream's.
        case foreignOrigin
    }

    static func resolve(_ link: String, from current: String, within origin: Origin?) throws(Refusal) -> String {
        guard let base = URL(string: current),
            let resolved = URL(string: link, relativeTo: base)?.absoluteURL,
            var components = URLComponents(url: resolved, resolvingAgainstBaseURL: false)
        else { throw .unusable }
        guard let origin, Origin(resolved) == origin else { throw .foreignOrigin }
        components.fragment = nil
        components.user = nil
        components.password = nil
        guard let next = components.string else { throw .unusable }
        return next
    }
}
