import FolioConfiguration
import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads the config on SIGHUP (docs/OPERATIONS.md, "Signals"). The signal sequence is created before the
/// listeners start, because SIGHUP's default action would end the process.
struct ReloadService: Service {
    let signals: UnixSignalsSequence
    let server: FolioServer
    let load: (@Sendable () throws(ConfigurationError) -> Configuration)?

    func run() async throws {
        for await signal in signals.cancelOnGracefulShutdown() {
            let logger = server.gateway.logger
            guard let load else {
                logger.warning("reload ignored: no config file to read", metadata: ["signal": "\(signal)"])
                continue
            }
            logger.notice("reloading config", metadata: ["signal": "\(signal)"])
            _ = await server.reload(load)
        }
        // No signals trapped (tests): the sequence ends at once, but the service must not, or
        // the group would stop everything.
        try? await gracefulShutdown()
    }
}
