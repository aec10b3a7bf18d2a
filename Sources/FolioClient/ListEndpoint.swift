import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A list route of Folio as the client reaches it: its URL (with any filters, `sort`, `q` the app
/// wants, e.g. `https://api.example.com/objects?category=tools`), the route's dialect, the names
/// it gives its paging parameters (its `params`) and the transport every request goes through.
public struct ListEndpoint: Sendable {
    public var url: URL
    public var dialect: Dialect
    public var parameterNames: ParameterNames
    public var transport: any Transport

    public init(
        url: URL, dialect: Dialect = .folio, parameterNames: ParameterNames = .standard,
        transport: any Transport = URLSessionTransport()
    ) {
        self.url = url
        self.dialect = dialect
        self.parameterNames = parameterNames
        self.transport = transport
    }

    /// The route's URL plus `extra` parameters, after the app's own, which keep their bytes
    /// (docs/API.md, "The page" keeps their order and encoding in links).
    func url(adding extra: [URLQueryItem]) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        var added = URLComponents()
        added.queryItems = extra
        let parts = [components.percentEncodedQuery, added.percentEncodedQuery].compactMap { $0 }
        components.percentEncodedQuery = parts.filter { !$0.isEmpty }.joined(separator: "&")
        return components.url ?? url
    }

    /// The page of `limit` items at `offset`, pinned to `snapshot` when there is one.
    func pageURL(offset: Int, limit: Int, snapshot: String?) -> URL {
        url(adding: dialect.pagingQuery(offset: offset, limit: limit, names: parameterNames) + Self.pin(snapshot))
    }

    static func pin(_ snapshot: String?) -> [URLQueryItem] {
        snapshot.map { [URLQueryItem(name: "snapshot", value: $0)] } ?? []
    }

    /// A link as Folio wrote it (relative without `publicBaseURL`), made absolute.
    func resolve(_ link: String) -> URL? {
        URL(string: link, relativeTo: url)?.absoluteURL
    }

    /// GETs `url` and returns the body of a `200`/`206`.
    ///
    /// - Throws: `CancellationError` when the calling task was cancelled (the request with it),
    ///   otherwise a `ClientError` (`snapshotGone` for a 410, carrying its `Link rel="first"`).
    func get(_ url: URL) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(request)
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw error as? ClientError ?? .transport(error)
        }
        guard response.statusCode == 200 || response.statusCode == 206 else {
            throw ClientError.status(
                response.statusCode, body: data, first: Links(header: response.header("Link"))["first"])
        }
        return (data, response)
    }

    /// GETs a page and reads it in the endpoint's dialect.
    func page<Element: Decodable & Sendable>(_ url: URL, of type: Element.Type = Element.self) async throws -> Page<
        Element
    > {
        let (data, response) = try await get(url)
        return try dialect.page(of: type, from: data, response: response)
    }
}
