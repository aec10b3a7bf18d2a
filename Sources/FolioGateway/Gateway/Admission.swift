import FolioConfiguration
import FolioEngine
import HTTPTypes

/// What no route may see, refused before any route answers (docs/API.md, "Requests", "Paths"): bad framing
/// (400), breached request limits (414, 431), `CONNECT` (405), and targets that are no path or hold a dot segment
/// (400).
enum Admission {
    static func check(_ request: HTTPRequest, limits: Configuration.Limits) throws(FolioError) {
        try RequestFraming.check(request)
        try RequestLimits.check(request, limits: limits)
        try RequestTargetRules.check(request)
    }
}
