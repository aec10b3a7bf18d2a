import Foundation

/// Following a redirect is decided here, separately from any I/O.
enum Redirect {
    /// Statuses that send the client elsewhere; 304 and 300 are answers, not redirects.
    static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// The absolute URL to request next, or nil when `location` is unusable or leaves `origin`.
    /// A relative `Location` is resolved against `current`; a fragment or user info is never sent.
    static func target(_ location: String, from current: String, within origin: Origin) -> String? {
        guard let base = URL(string: current),
            let resolved = URL(string: location, relativeTo: base)?.absoluteURL,
            Origin(resolved) == origin,
            var components = URLComponents(url: resolved, resolvingAgainstBaseURL: false)
        else { return nil }
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string
    }
}
