import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension PagedList {
    /// Brings the list to the newest snapshot without starting over (docs/API.md, "Changes
    /// between snapshots"): one `?since=TOKEN` request, whose patch is applied to the rows.
    /// Loaded rows stay loaded and shift, placeholders shift, added and replaced rows arrive with
    /// their values; `.changed(ListChange)` reports it as one animatable change, and later loads
    /// ask for what is still missing from the new snapshot.
    ///
    /// - Returns: the change, or nil when there was nothing to apply it to: the list is not
    ///   loaded, or a newer list was installed meanwhile, or the snapshot had expired (410), in
    ///   which case the list reset itself (`.reset(count:)`) as a page's 410 makes it do.
    @discardableResult
    public func sync() async throws -> ListChange? {
        let (token, generation) = state.withLock { ($0.snapshot, $0.generation) }
        guard let token else { return nil }
        do {
            let (data, _) = try await endpoint.get(endpoint.changesURL(since: token))
            return try apply(try endpoint.patch(of: Element.self, from: data))
        } catch let gone as ClientError where gone.code == .snapshotGone {
            try await followReset(after: gone, generation: generation)
            return nil
        }
    }

    /// Keeps the list up to date until the calling task is cancelled (docs/API.md, "Watching a
    /// list"): an event stream of the list's changes, each applied as `sync()` applies one. When
    /// the stream ends or the connection drops, it reconnects with `Last-Event-ID` (after 1 s,
    /// doubling up to 30 s while it keeps failing); a 410 resets the list and watches the new
    /// snapshot. Needs a `StreamingTransport` (`URLSessionTransport` is one).
    ///
    /// - Throws: `CancellationError` when the task is cancelled; a `ClientError` for an answer
    ///   that retrying cannot mend (a 4xx other than 410, such as a route without `idField`).
    public func watch() async throws {
        guard let transport = endpoint.transport as? any StreamingTransport else {
            throw ClientError.malformed(
                "watch() needs a StreamingTransport; \(type(of: endpoint.transport)) is not one")
        }
        var lastEventID: String?
        var backoff = Duration.seconds(1)
        while true {
            try Task.checkCancellation()
            let (token, generation) = state.withLock { ($0.snapshot, $0.generation) }
            guard let token = lastEventID ?? token else {
                try await load()
                continue
            }
            var request = URLRequest(url: endpoint.changesURL(since: token))
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            if let lastEventID { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
            do {
                let answer = try await transport.stream(request)
                let status = answer.response.statusCode
                guard status == 200 else {
                    var body = Data()
                    for try await chunk in answer.body { body += chunk }
                    let error = ClientError.status(
                        status, body: body, first: Links(header: answer.response.header("Link"))["first"])
                    if error.code == .snapshotGone {
                        try await followReset(after: error, generation: generation)
                        lastEventID = nil
                        continue
                    }
                    if (400..<500).contains(status) { throw error }
                    throw URLError(.badServerResponse)  // 5xx, 503 too many watchers: retried
                }
                var parser = EventStreamParser()
                reading: for try await chunk in answer.body {
                    for event in parser.feed(chunk) where event.type == "changes" {
                        let patch = try endpoint.patch(of: Element.self, from: Data(event.data.utf8))
                        // A patch from a snapshot the list no longer shows (a reset meanwhile):
                        // start again from the list's own snapshot.
                        guard try apply(patch) != nil else {
                            lastEventID = nil
                            break reading
                        }
                        lastEventID = event.id ?? patch.to
                        backoff = .seconds(1)
                    }
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch let error as ClientError where error.code != .transport {
                throw error
            } catch {
                if Task.isCancelled { throw CancellationError() }
                try await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(30))
            }
        }
    }

    /// Applies `patch` if it starts from the list's snapshot: rows shifted, the new snapshot and
    /// count, loads of the old snapshot dropped, the window asked again, `.changed` reported.
    func apply(_ patch: ListPatch<Element>) throws -> ListChange? {
        try state.withLock { state -> ListChange? in
            guard patch.from == state.snapshot else { return nil }
            if patch.from == patch.to && patch.operations.isEmpty {
                return ListChange(previousCount: state.count, count: state.count)
            }
            let change = try state.rows.apply(patch.operations, expectedCount: patch.count)
            // Answers asked from the old snapshot are dropped; what is missing is asked anew.
            cancelLoads(in: &state)
            state.generation += 1
            state.nextInstall += 1
            state.installed = state.nextInstall
            state.failed = []
            state.snapshot = patch.to
            state.count = patch.count
            if let visible = state.visible {
                state.window = window(for: visible, count: state.count, pageSize: state.pageSize)
            }
            state.answered = []
            state.queue = state.window.filter { !state.isLoaded(page: $0) }
            deferPages(in: &state)
            if !change.isEmpty { emit(.changed(change)) }
            pump(&state)
            return change
        }
    }
}

extension ListEndpoint {
    /// `?since=TOKEN` with the route's view parameters and no paging ones.
    func changesURL(since token: String) -> URL {
        url(adding: [URLQueryItem(name: "since", value: token)])
    }

    func patch<Element: Decodable & Sendable>(of type: Element.Type, from data: Data) throws -> ListPatch<Element> {
        do {
            return try JSONDecoder().decode(ListPatch<Element>.self, from: data)
        } catch {
            throw ClientError.malformed("not a changes answer: \(error)")
        }
    }
}
