import FolioEngine
import HTTPTypes
import NIOCore

extension SentAnswer {
    /// An upstream error answer, passed back with its end-to-end headers and decoded body.
    init(passingThrough answer: UpstreamAnswer) {
        var headers = HTTPFields()
        for (name, value) in answer.headers {
            if let fieldName = HTTPField.Name(name) { headers.append(HTTPField(name: fieldName, value: value)) }
        }
        headers[.contentLength] = String(answer.body.count)
        self.init(
            status: HTTPResponse.Status(code: answer.status), headers: headers, body: ByteBuffer(bytes: answer.body))
    }

    /// For an answer passed back from an upstream.
    var upstreamOutcome: UpstreamOutcome { UpstreamOutcome(status: status.code) }
}
