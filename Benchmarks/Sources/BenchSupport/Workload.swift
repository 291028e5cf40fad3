/// One request workload: how many GETs, how many in flight, over which server.
public struct Workload: Sendable {
    public enum Server: Sendable { case http, https }

    public var name: String
    public var server: Server
    public var path: String
    public var count: Int
    public var inflight: Int

    public init(name: String, server: Server, path: String, count: Int, inflight: Int) {
        self.name = name
        self.server = server
        self.path = path
        self.count = count
        self.inflight = inflight
    }

    /// The request workloads: sequential, 64 in flight over HTTP/1.1, 64 over HTTP/2 with TLS.
    public static func requestWorkloads(scale: Double) -> [Workload] {
        func scaled(_ count: Int) -> Int { max(100, Int(Double(count) * scale)) }
        return [
            Workload(name: "sequential GETs, one keep-alive connection (HTTP/1.1)",
                     server: .http, path: "/bench.json", count: scaled(10_000), inflight: 1),
            Workload(name: "GETs, 64 in flight (HTTP/1.1)",
                     server: .http, path: "/bench.json", count: scaled(20_000), inflight: 64),
            Workload(name: "GETs, 64 in flight (HTTP/2 over TLS)",
                     server: .https, path: "/bench.json", count: scaled(20_000), inflight: 64),
        ]
    }
}
