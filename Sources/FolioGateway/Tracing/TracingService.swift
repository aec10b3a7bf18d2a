import ServiceLifecycle

/// The tracing library's service (batching, flushing on shutdown) together with Folio's
/// delivery of what it exports: the relay stays open until the library's last flush has
/// arrived, and the delivery sends what is queued before it returns.
struct TracingService: Service {
    let library: any Service
    let delivery: SpanDelivery?
    let relay: SpanRelay?

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
