import HTTPTypes

extension Gateway {
    /// What every answer carries whoever wrote it: its `Cache-Status` when the cache was asked
    /// or the request forwarded (`record.cache`, docs/API.md, "Cache-Status"), its request ID and
    /// CORS fields (docs/API.md, "Headers on every page"). A kept answer's fields are shared with its
    /// snapshot: these go after them (`added`), and its fields are copied (and its kept head
    /// not used) only when one of them must change.
    func decorate(_ answer: inout SentAnswer, request: HTTPRequest, record: RequestRecord, requestID: String) {
        record.requestID = requestID
        let routeAnswer = record.routeIndex != nil
        let allowed = configuration.server.cors.allowOrigins
        // An OPTIONS on a route path that is no preflight gets no allow headers, even from an
        // allowed origin (a preflight's are set by `CORSRules.preflight`).
        let plainOptions =
            routeAnswer && request.method == .options && request.headerFields[.accessControlRequestMethod] == nil
        let origin = plainOptions ? nil : request.headerFields[.origin]
        if answer.keptHead != nil {
            // Kept answers are route answers with neither a request ID nor CORS fields.
            answer.added.append(HTTPField(name: .xRequestID, value: requestID))
            if CORSRules.appendRouteFields(to: &answer.added, origin: origin, allowed: allowed) { return }
            answer.headers = answer.allFields
            answer.added = []
            answer.keptHead = nil
            CORSRules.decorate(&answer.headers, origin: origin, allowed: allowed, routeAnswer: true)
            return
        }
        // A kept answer got it with its `Age` (`KeptListAnswer.sending`); set, not appended: an
        // upstream's own field never reaches the client.
        if let cacheStatus = record.cacheStatus { answer.headers[.cacheStatus] = cacheStatus }
        HTTPFields.setOrAppend(&answer.headers, .xRequestID, requestID)
        CORSRules.decorate(&answer.headers, origin: origin, allowed: allowed, routeAnswer: routeAnswer)
    }
}
