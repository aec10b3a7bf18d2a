import AsyncHTTPClient
import FolioEngine
import NIOCore
import NIOPosix

extension UpstreamError {
    /// Where a library error surfaced: before the head nothing has been received yet, so
    /// connection failures there mean the upstream is unreachable.
    enum Phase: Sendable {
        case head, body
    }

    /// Translates an AsyncHTTPClient/NIO error into what Folio answers.
    ///
    /// Errors that are already Folio's pass unchanged, and cancellation of the calling task
    /// stays a `CancellationError` so it is never reported as an upstream fault.
    static func translating(_ error: any Error, phase: Phase) -> any Error {
        switch error {
        case is UpstreamError, is FolioError:
            return error
        case _ where Task.isCancelled:
            return CancellationError()
        case let error as HTTPClientError:
            switch error {
            // Waiting for a pooled connection past `connectTimeout` is, for the client, the same:
            // no connection to the upstream in time.
            case .connectTimeout, .getConnectionFromPoolTimeout: return UpstreamError.connectTimeout("\(error)")
            case .deadlineExceeded, .readTimeout: return UpstreamError.timeout("\(error)")
            default: return UpstreamError.failed("\(error)")
            }
        case ChannelError.connectTimeout(_):
            return UpstreamError.connectTimeout("\(error)")
        case is NIOConnectionError where phase == .head, is IOError where phase == .head:
            return UpstreamError.unreachable("\(error)")
        default:
            return UpstreamError.failed("\(error)")
        }
    }
}
