import FolioConfiguration
import Foundation
import Testing
import Yams

/// The Kubernetes examples of a Redis Cluster and of Sentinel (config/kubernetes/redis-cluster/,
/// redis-sentinel/): each ConfigMap is a config Folio loads, naming the servers the examples
/// run (or the Bitnami chart's names), with no password in it.
@Suite("Kubernetes examples of Cluster and Sentinel")
struct KubernetesRedisExamplesTests {
    static func configuration(_ path: String) throws -> Configuration {
        let configMap = try #require(try Yams.load(yaml: try ContainerTests.text(path)) as? [String: Any])
        let yaml = try #require((configMap["data"] as? [String: Any])?["folio.yaml"] as? String)
        return try ConfigurationLoader.parse(yaml: yaml, file: path, environment: [:])
    }

    @Test func theClusterExampleSeedsFromTheClustersService() throws {
        let redis = try Self.configuration("config/kubernetes/redis-cluster/configmap.yaml").cache.redis
        let seed = try #require(redis.cluster.first)
        #expect(redis.url == nil && seed.password == nil)
        let documents = try Yams.load_all(
            yaml: try ContainerTests.text("config/kubernetes/redis-cluster/redis-cluster.yaml")
        ).compactMap { $0 as? [String: Any] }
        let service = try #require(documents.first { $0["kind"] as? String == "Service" })
        #expect((service["metadata"] as? [String: Any])?["name"] as? String == seed.host)
        let set = try #require(documents.first { $0["kind"] as? String == "StatefulSet" })
        #expect((set["spec"] as? [String: Any])?["replicas"] as? Int == 6, "three primaries, a replica each")
    }

    @Test func theSentinelExampleUsesTheBitnamiNames() throws {
        let sentinel = try #require(
            try Self.configuration("config/kubernetes/redis-sentinel/configmap.yaml").cache.redis.sentinel)
        #expect(sentinel.masterName == "mymaster")
        #expect(sentinel.nodes.map(\.description) == ["redis://redis:26379"])
        #expect(sentinel.password == nil && sentinel.sentinelPassword == nil)
    }
}
