// swift-tools-version:6.2
import PackageDescription

// Side-by-side benchmarks: AF against raw libcurl, AsyncHTTPClient and Foundation's URLSession
// on the project's nginx. Build in release:
//   swift run -c release af-bench
let package = Package(
    name: "AFBenchmarks",
    dependencies: [
        .package(name: "AF", path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .systemLibrary(name: "CurlSystem", pkgConfig: "libcurl"),
        .target(name: "BenchSupport"),
        .executableTarget(
            name: "af-bench",
            dependencies: ["BenchSupport"]
        ),
        .executableTarget(
            name: "af-bench-client",
            dependencies: ["BenchSupport", .product(name: "AFCore", package: "AF"), .product(name: "AFMultipart", package: "AF"),
                           .product(name: "AFCache", package: "AF"), .product(name: "AFOpenAPI", package: "AF"),
                           .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                           .product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        .executableTarget(
            name: "ahc-bench-client",
            dependencies: ["BenchSupport", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl")]
        ),
        .executableTarget(
            name: "urlsession-bench-client",
            dependencies: ["BenchSupport"]
        ),
        // The cache-tests.fyi suite's view of AF's HTTP cache (scripts/cache-tests.sh).
        .executableTarget(
            name: "cache-tests-proxy",
            dependencies: [.product(name: "AFCore", package: "AF"), .product(name: "AFCache", package: "AF"),
                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .target(name: "SkeletonShim", dependencies: ["CurlSystem"]),
        .executableTarget(
            name: "skeleton-bench",
            dependencies: ["BenchSupport", "SkeletonShim"]
        ),
        .executableTarget(
            name: "curl-multi-bench",
            dependencies: ["CurlSystem"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
