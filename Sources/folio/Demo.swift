import ArgumentParser
import FolioConfiguration
import FolioGateway
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start a built-in legacy upstream and the gateway in front of it.")

    @Option(name: .long, help: "Port of the gateway.")
    var port: Int = 8080

    @Option(
        name: .long,
        help:
            "A demo config to use instead of the built-in one; `http://demo-upstream` in it is replaced by the built-in upstream."
    )
    var config: String?

    @Option(
        name: .long,
        help: "Change the built-in upstream's list every this many seconds (0: only on POST /objects/change).")
    var changeEvery: Int = 0

    func run() async throws {
        // A port out of range would wrap around (70000 binds 4464), or fail in the resolver's words.
        guard (0...65535).contains(port) else { fail("demo: --port must be 0 to 65535, got \(port)") }
        guard changeEvery >= 0 else { fail("demo: --change-every must be 0 or more seconds, got \(changeEvery)") }
        tuneAllocator()
        let template: String
        if let config {
            guard let text = try? String(contentsOfFile: config, encoding: .utf8) else {
                fail("\(config): cannot read the demo config")
            }
            template = text
        } else {
            template = DemoConfiguration.yaml
        }
        // The built-in upstream logs as the gateway does (docs/OPERATIONS.md, "Logs": JSON lines on stdout), at
        // warning and above so the tour stays readable; the process's logging is bootstrapped
        // only once the config is read.
        let bootstrapLogger = Logger(label: "folio.demo") { JSONLogHandler(label: $0, level: .warning) }
        let upstreamPort = Port()
        let upstream = DemoUpstream.application(
            logger: bootstrapLogger, changeEvery: changeEvery > 0 ? .seconds(changeEvery) : nil
        ) { port in await upstreamPort.set(port) }
        let upstreamGroup = ServiceGroup(configuration: .init(services: [upstream], logger: bootstrapLogger))
        let upstreamTask = Task { try await upstreamGroup.run() }
        let boundUpstream = await upstreamPort.value()

        let upstreamAddress = "http://127.0.0.1:\(boundUpstream)"
        let port = self.port
        let path = config
        @Sendable func load() throws(ConfigurationError) -> Configuration {
            // A given file is read again on SIGHUP, with the same substitutions as at start.
            let text = path.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? template
            var configuration = try ConfigurationLoader.parse(
                yaml: text.replacingOccurrences(of: DemoConfiguration.upstreamPlaceholder, with: upstreamAddress),
                file: path ?? DemoConfiguration.file, environment: ProcessInfo.processInfo.environment)
            configuration.server.listen.port = port
            return configuration
        }
        let configuration: Configuration
        do {
            configuration = try load()
        } catch {
            fail(oneLine(error, path: path ?? DemoConfiguration.file))
        }
        failOnStartupProblems(configuration, file: path ?? DemoConfiguration.file)
        let logger = makeLogger(configuration)
        let adminPort = Port()
        let server: FolioServer
        do {
            server = try buildApplication(
                configuration: configuration, logger: logger, metrics: makeMetricsRegistry(),
                onListening: { bound in
                    let admin = await adminPort.value()
                    printTour(gateway: bound, admin: admin, upstream: boundUpstream)
                },
                onAdminListening: { await adminPort.set($0) })
        } catch {
            fail("demo: \(error)")
        }
        if configuration.server.admin == nil { await adminPort.set(0) }
        let termination: Termination
        do {
            termination = try await ServerLifecycle(server: server, load: load).run()
        } catch {
            fail("demo: \(error)")
        }
        await upstreamGroup.triggerGracefulShutdown()
        _ = await upstreamTask.result
        BufferedLogWriter.standardOutput.flush()
        Foundation.exit(termination.exitCode)
    }
}

/// A one-shot async value, for ports known only once a listener is bound.
actor Port {
    private var port: Int?
    private var waiters: [CheckedContinuation<Int, Never>] = []

    func set(_ value: Int) {
        port = value
        for waiter in waiters { waiter.resume(returning: value) }
        waiters = []
    }

    func value() async -> Int {
        if let port { return port }
        return await withCheckedContinuation { waiters.append($0) }
    }
}

func printTour(gateway: Int, admin: Int, upstream: Int) {
    let base = "http://127.0.0.1:\(gateway)"
    let text = """

        Folio demo is running (Ctrl-C to stop).
          legacy upstream (one big array): http://127.0.0.1:\(upstream)/objects
          legacy upstream (pages of 20):   http://127.0.0.1:\(upstream)/paged/objects
          admin:                           http://127.0.0.1:\(admin)/readyz

        Try:
          curl -s '\(base)/objects?pageSize=5'                      # first page, totalCount and links
          curl -s '\(base)/objects?pageSize=5&page=3'               # any page by number
          curl -s '\(base)/objects?metadataOnly'                    # just the paging block
          curl -si '\(base)/objects?pageSize=5' | grep -i -e link -e x-total-count
          curl -si -H 'Range: items=100-104' '\(base)/objects'       # 206 Partial Content
          curl -s '\(base)/objects?groupBy=alphabetical&metadataOnly'   # section index A..Z, #
          curl -s '\(base)/objects?beginsWith=O&pageSize=5'          # jump to a section (Ørsted, Oscar, Œuvre…)
          curl -s '\(base)/objects?sort=-price&pageSize=3'           # another order
          curl -s '\(base)/objects?groupBy=category&metadataOnly'      # sections by a field's value
          curl -s '\(base)/paged-objects?pageSize=5&page=3'         # crawled from 67 upstream pages of 20
          curl -s '\(base)/drf/objects?page=2&page_size=5'           # Django REST framework page
          curl -s '\(base)/hal/objects?page=1&size=5&sort=price,desc' # Spring Data REST (HAL)
          curl -si '\(base)/jsonserver/objects?_page=2&_limit=5'      # json-server: bare array, X-Total-Count
          curl -si '\(base)/simplerest/objects?range=%5B0,4%5D'       # react-admin: Content-Range
          curl -s '\(base)/laravel/objects?page=2&per_page=5'        # Laravel paginator: data, links, total
          curl -s '\(base)/jsonapi/objects?page%5Bnumber%5D=2&page%5Bsize%5D=5' # JSON:API resources
          curl -s '\(base)/odata/objects?$top=5&$count=true&$filter=price%20lt%2020' # OData v4
          curl -s '\(base)/strapi/objects?pagination%5Bpage%5D=2&pagination%5BpageSize%5D=5' # Strapi v4
          curl -s '\(base)/stripe/objects?limit=5&starting_after=7'    # Stripe-style cursor list

        Changes (TOKEN: the paging.snapshot of any page above):
          curl -s '\(base)/objects?since=TOKEN'                        # JSON Patch from that snapshot to now
          curl -N -H 'Accept: text/event-stream' '\(base)/objects?since=TOKEN'   # watch: an event per change
          curl -s -X POST 'http://127.0.0.1:\(upstream)/objects/change'   # change the upstream's list now
                                                                   # (or start with --change-every 10)

        """
    FileHandle.standardOutput.write(Data(text.utf8))
}
