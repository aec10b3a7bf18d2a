/// Which answers send the client elsewhere; where to is `SameOriginLink`'s decision.
enum Redirect {
    /// Statuses that send the client elsewhere; 304 and 300 are answers, not redirects.
    static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }
}
