import FolioConfiguration
import Foundation
import Testing
import Yams

@testable import FolioGateway

/// What can be checked about the image and the Kubernetes example without a Docker engine or a
/// cluster (docs/OPERATIONS.md, "Docker" and "Kubernetes"). `scripts/check-container.sh --build` adds the `ldd`
/// check of a static build.
@Suite("Container and Kubernetes example")
struct ContainerTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// `COPY` instructions from the build context: (sources, destination).
    static func contextCopies(_ dockerfile: String) -> [(sources: [String], destination: String)] {
        dockerfile.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").map(String.init)
            guard words.first == "COPY", !words.contains(where: { $0.hasPrefix("--from=") }) else { return nil }
            let operands = words.dropFirst().filter { !$0.hasPrefix("--") }
            return (Array(operands.dropLast()), operands.last ?? "")
        }
    }

    @Test func everyCopySourceOfTheDockerfileExists() throws {
        let copies = Self.contextCopies(try Self.text("Dockerfile"))
        #expect(!copies.isEmpty)
        for source in copies.flatMap(\.sources) {
            #expect(
                FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(source).path),
                "Dockerfile copies \(source), which does not exist")
        }
    }

    @Test func theImageIsStaticallyLinkedSlimAndNonRoot() throws {
        let dockerfile = try Self.text("Dockerfile")
        let images = dockerfile.split(separator: "\n").filter { $0.hasPrefix("FROM ") }
            .map { String($0.split(separator: " ")[1]) }
        let build = try #require(images.first)
        let runtime = try #require(images.last)
        let release = try #require(build.split(separator: "-").last)
        #expect(runtime == "debian:\(release)-slim")
        #expect(dockerfile.contains("--static-swift-stdlib"))
        let user = try #require(dockerfile.split(separator: "\n").last { $0.hasPrefix("USER ") })
        let uid = try #require(Int(user.dropFirst(5).split(separator: ":")[0]))
        #expect(uid != 0)
        // The image's example config loads (it is what `docker run` without a mount serves).
        let copies = Self.contextCopies(dockerfile).filter { $0.sources.contains("config/folio.yaml") }
        #expect(copies.first?.destination == "/config/folio.yaml")
        _ = try ConfigurationLoader.load(
            file: Self.root.appendingPathComponent("config/folio.yaml").path, environment: [:])
    }

    /// The Deployment's Folio container (a native sidecar) and the config its ConfigMap carries.
    struct Example {
        let pod: [String: Any]
        let folio: [String: Any]
        let configuration: Configuration
    }

    static func example() throws -> Example {
        let documents = try Yams.load_all(yaml: try text("config/kubernetes/deployment.yaml")).compactMap {
            $0 as? [String: Any]
        }
        let deployment = try #require(documents.first { $0["kind"] as? String == "Deployment" })
        let template = try #require((deployment["spec"] as? [String: Any])?["template"] as? [String: Any])
        let pod = try #require(template["spec"] as? [String: Any])
        let initContainers = try #require(pod["initContainers"] as? [[String: Any]])
        let folio = try #require(initContainers.first { $0["name"] as? String == "folio" })

        let configMap = try #require(
            try Yams.load(yaml: try text("config/kubernetes/configmap.yaml")) as? [String: Any])
        let yaml = try #require((configMap["data"] as? [String: Any])?["folio.yaml"] as? String)
        let configuration = try ConfigurationLoader.parse(yaml: yaml, file: "configmap.yaml")
        return Example(pod: pod, folio: folio, configuration: configuration)
    }

    @Test func folioRunsAsANativeSidecarWithItsConfigMounted() throws {
        let example = try Self.example()
        #expect(example.folio["restartPolicy"] as? String == "Always")
        let mounts = try #require(example.folio["volumeMounts"] as? [[String: Any]])
        let mount = try #require(mounts.first { $0["mountPath"] as? String == "/config" })
        let volumes = try #require(example.pod["volumes"] as? [[String: Any]])
        let volume = try #require(volumes.first { $0["name"] as? String == mount["name"] as? String })
        #expect((volume["configMap"] as? [String: Any])?["name"] as? String == "folio-config")
        let security = try #require(example.folio["securityContext"] as? [String: Any])
        #expect(security["readOnlyRootFilesystem"] as? Bool == true)
        #expect(security["runAsNonRoot"] as? Bool == true)
    }

    @Test func theReplicasShareTheRedisOfTheExampleWithItsPasswordFromASecret() throws {
        let example = try Self.example()
        #expect(example.configuration.cache.store == .redis)
        let url = try #require(example.configuration.cache.redis.url)
        #expect(url.password == nil, "no password in the ConfigMap")
        let env = try #require(example.folio["env"] as? [[String: Any]])
        #expect(env.contains { $0["name"] as? String == "FOLIO_REDIS_PASSWORD" && $0["valueFrom"] != nil })

        let documents = try Yams.load_all(yaml: try Self.text("config/kubernetes/redis.yaml")).compactMap {
            $0 as? [String: Any]
        }
        let service = try #require(documents.first { $0["kind"] as? String == "Service" })
        #expect((service["metadata"] as? [String: Any])?["name"] as? String == url.host)
        let ports = try #require((service["spec"] as? [String: Any])?["ports"] as? [[String: Any]])
        #expect(ports.contains { $0["port"] as? Int == url.port })
        #expect(documents.contains { $0["kind"] as? String == "Deployment" })
    }

    @Test func probesHitLivezAndReadyzOnTheAdminListener() throws {
        let example = try Self.example()
        let admin = try #require(example.configuration.server.admin)
        #expect(admin.host == "0.0.0.0")
        let ports = try #require(example.folio["ports"] as? [[String: Any]])
        let adminPort = try #require(ports.first { $0["containerPort"] as? Int == admin.port })
        for (probe, path) in [("livenessProbe", "/livez"), ("readinessProbe", "/readyz")] {
            let get = try #require((example.folio[probe] as? [String: Any])?["httpGet"] as? [String: Any], "\(probe)")
            #expect(get["path"] as? String == path)
            let port = get["port"]
            #expect(port as? String == adminPort["name"] as? String || port as? Int == admin.port, "\(probe) port")
        }
        let listen = example.configuration.server.listen
        #expect(ports.contains { $0["containerPort"] as? Int == listen.port })
    }

    @Test func theAdminTokenComesFromASecret() throws {
        let example = try Self.example()
        let env = try #require(example.folio["env"] as? [[String: Any]])
        let token = try #require(env.first { $0["name"] as? String == "FOLIO_ADMIN_TOKEN" })
        #expect(token["value"] == nil)
        #expect(((token["valueFrom"] as? [String: Any])?["secretKeyRef"] as? [String: Any])?["key"] != nil)
    }

    @Test func theGracePeriodCoversTheWholeShutdown() throws {
        let example = try Self.example()
        let server = example.configuration.server
        #expect(server.shutdownDelay > .zero, "a shutdownDelay lets endpoints be removed before the listener closes")
        // The sidecar is stopped after the app container, so the app's preStop sleep comes first.
        let containers = try #require(example.pod["containers"] as? [[String: Any]])
        let appSleep =
            containers.compactMap {
                ((($0["lifecycle"] as? [String: Any])?["preStop"] as? [String: Any])?["sleep"] as? [String: Any])?[
                    "seconds"] as? Int
            }.max() ?? 0
        let grace = try #require(example.pod["terminationGracePeriodSeconds"] as? Int)
        #expect(.seconds(grace) > .seconds(appSleep) + server.shutdownDelay + server.drainTimeout)
    }
}
