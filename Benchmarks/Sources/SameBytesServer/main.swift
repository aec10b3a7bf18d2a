import Foundation
import Hummingbird

/// `SameBytesServer FILE PORT [--chunked]`: answers every GET with FILE's bytes from memory, as
/// `application/json`.
///
/// Plain, it is the throughput limit of Folio's stack (Hummingbird on NIO) for a page of the
/// same size, without any of Folio's work. With `--chunked` it sends the bytes in 64 KiB chunks
/// without `Content-Length`: an upstream whose length Folio cannot know in advance.
let arguments = CommandLine.arguments
guard arguments.count >= 3, let port = Int(arguments[2]), let data = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: SameBytesServer FILE PORT [--chunked]\n".utf8))
    exit(2)
}
let bytes = ByteBuffer(bytes: data)
let chunked = arguments.dropFirst(3).contains("--chunked")

struct SameBytes: HTTPResponder {
    typealias Context = BasicRequestContext
    let bytes: ByteBuffer
    let chunked: Bool

    func respond(to request: Request, context: Context) async throws -> Response {
        guard chunked else {
            return Response(
                status: .ok,
                headers: [.contentType: "application/json", .contentLength: String(bytes.readableBytes)],
                body: ResponseBody(byteBuffer: bytes))
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
    responder: SameBytes(bytes: bytes, chunked: chunked),
    configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), serverName: nil))
try await application.runService()
