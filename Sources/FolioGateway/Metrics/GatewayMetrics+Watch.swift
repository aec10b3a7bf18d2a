import Prometheus

extension GatewayMetrics {
    static let watchStreams = descriptor(
        "watch_streams", unit: nil, help: "Open event streams (watchers) on this replica, by route.")
    static let watchEvents = descriptor(
        "watch_events", unit: "total", help: "Events sent on event streams (first events included), by route.")

    /// The open streams of `route` (the registry hands out one gauge per label set).
    func watchStreams(_ route: String) -> Gauge {
        registry.makeGauge(descriptor: Self.watchStreams.descriptor, labels: [("route", route)])
    }

    /// A stream of `route` opened (or closed): the gauge of `/metrics` and the route's
    /// `watchers` of `/state` (docs/API.md, "Admin state").
    func watchStream(_ route: String, opened: Bool) {
        let (gauge, activity) = (watchStreams(route), activities.activity(route))
        if opened {
            gauge.increment()
            activity.watchOpened()
        } else {
            gauge.decrement()
            activity.watchClosed()
        }
    }

    /// Events sent on `route`'s streams.
    func watchEvents(_ route: String) -> Counter {
        registry.makeCounter(descriptor: Self.watchEvents.descriptor, labels: [("route", route)])
    }
}
