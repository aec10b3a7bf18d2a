import Foundation
import HTTPTypes
import Hummingbird

/// `SameBytesServer FILE PORT [--chunked | --headers HEADERS_FILE]`: answers every GET with
/// FILE's bytes from memory, as `application/json`.
///
/// Plain, it is the throughput limit of Folio's stack (Hummingbird on NIO) for a page of the
/// same size, without any of Folio's work. `--headers` adds the fields of a captured response
/// head (`Name: value` lines, as `curl -D` writes them): the limit for Folio's own header set.
/// With `--chunked` it sends the bytes in 64 KiB chunks without `Content-Length`: an upstream
/// whose length Folio cannot know in advance.
let arguments = CommandLine.arguments
guard arguments.count >= 3, let port = Int(arguments[2]), let data = FileManager.default.contents(atPath: arguments[1])
else {
    FileHandle.standardError.write(Data("usage: SameBytesServer FILE PORT [--chunked]\n".utf8))
    exit(2)
}
let bytes = ByteBuffer(bytes: data)
let chunked = arguments.dropFirst(3).contains("--chunked")
var extraHeaders: HTTPFields = [:]
if let flag = arguments.firstIndex(of: "--headers"), flag + 1 < arguments.count,
    let text = try? String(contentsOfFile: arguments[flag + 1], encoding: .utf8)
{
    let skipped: Set<String> = ["content-length", "content-type", "date", "transfer-encoding", "connection"]
    for line in text.split(whereSeparator: \.isNewline) {
        guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])),
            !skipped.contains(name.canonicalName)
        else { continue }
        extraHeaders.append(
            HTTPField(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
    }
}

struct SameBytes: HTTPResponder {
    typealias Context = BasicRequestContext
    let bytes: ByteBuffer
    let chunked: Bool
    let extraHeaders: HTTPFields

    func respond(to request: Request, context: Context) async throws -> Response {
        guard chunked else {
            var headers = extraHeaders
            headers[.contentType] = "application/json"
            headers[.contentLength] = String(bytes.readableBytes)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: bytes))
        }
        let bytes = self.bytes
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody { writer in
                var rest = bytes
                while let chunk = rest.readSlice(length: min(64 << 10, rest.readableBytes)), chunk.readableBytes > 0 {
                    try await writer.write(chunk)
                }
                try await writer.finish(nil)
            })
    }
}

let application = Application(
    responder: SameBytes(bytes: bytes, chunked: chunked, extraHeaders: extraHeaders),
    configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), serverName: nil))
try await application.runService()
