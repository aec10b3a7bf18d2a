import ServiceLifecycle

/// The tracing library's service (batching, flushing on shutdown) together with Folio's
/// delivery of what it exports: the relay stays open until the library's last flush has
/// arrived, and the delivery sends what is queued before it returns.
struct TracingService: Service, CustomStringConvertible {
    let library: any Service
    let delivery: SpanDelivery?
    let relay: SpanRelay?

    /// Short: service-lifecycle logs a service's description, and the server's holds this one.
    var description: String { delivery == nil ? "TracingService" : "TracingService(exporting)" }

    func run() async throws {
        guard let delivery, let relay else { return try await library.run() }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await delivery.run() }
            defer { delivery.finish() }
            try await library.run()
        }
        await relay.close()
    }
}
