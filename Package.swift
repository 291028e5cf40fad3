// swift-tools-version:6.2
import PackageDescription

let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "AF",
    products: [
        .library(name: "AFCore", targets: ["AFCore"]),
        .library(name: "AFAuth", targets: ["AFAuth"]),
        .library(name: "AFTrust", targets: ["AFTrust"]),
        .library(name: "AFCache", targets: ["AFCache"]),
        .library(name: "AFMultipart", targets: ["AFMultipart"]),
        .library(name: "AFReachability", targets: ["AFReachability"]),
        .executable(name: "af", targets: ["af"]),
        // Alamofire's Combine publishers over OpenCombine; nothing else depends on it.
        .library(name: "AFCombine", targets: ["AFCombine"]),
        // A swift-openapi-runtime transport over a Session; nothing else depends on it.
        .library(name: "AFOpenAPI", targets: ["AFOpenAPI"]),
        // First-party plugins, built only on AFCore's public API.
        .library(name: "AFLogging", targets: ["AFLogging"]),
        .library(name: "AFMetrics", targets: ["AFMetrics"]),
        .library(name: "AFTracing", targets: ["AFTracing"]),
        .library(name: "AFServiceLifecycle", targets: ["AFServiceLifecycle"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Generates the client AFOpenAPITests drives (a build plugin of the test target only).
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        // `swift package generate-documentation` (scripts/docs.sh); a command plugin, linked into nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "CCurlShim",
            dependencies: ["CCurl"],
            cSettings: [.enableWarning("all"), .treatAllWarnings(as: .error)],
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto"), .linkedLibrary("z")]
        ),
        // CNetlink: the monitor socket that lets connections follow the host's network changes.
        .target(name: "AFCore", dependencies: ["CCurlShim", "CNetlink"], swiftSettings: strict),
        .target(name: "AFAuth", dependencies: ["AFCore"], swiftSettings: strict),
        .target(name: "AFTrust", dependencies: ["AFCore", "CCurlShim"], swiftSettings: strict),
        .target(name: "AFCache", dependencies: ["AFCore", "CSQLite"], swiftSettings: strict),
        .target(name: "AFMultipart", dependencies: ["AFCore"], swiftSettings: strict),
        .target(name: "CNetlink", cSettings: [.enableWarning("all"), .treatAllWarnings(as: .error)]),
        .target(name: "AFReachability", dependencies: ["AFCore", "CNetlink"], swiftSettings: strict),
        .target(name: "AFCombine", dependencies: ["AFCore", .product(name: "OpenCombine", package: "OpenCombine")],
                swiftSettings: strict),
        .target(name: "AFOpenAPI",
                dependencies: ["AFCore", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                               .product(name: "HTTPTypes", package: "swift-http-types")],
                swiftSettings: strict),
        .executableTarget(name: "af", dependencies: ["AFCore", "AFTrust", "AFCache", "AFMultipart", "AFReachability",
                                                     .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          swiftSettings: strict),
        .target(name: "AFLogging", dependencies: ["AFCore", .product(name: "Logging", package: "swift-log")],
                path: "Plugins/AFLogging", swiftSettings: strict),
        .target(name: "AFMetrics", dependencies: ["AFCore", .product(name: "Metrics", package: "swift-metrics")],
                path: "Plugins/AFMetrics", swiftSettings: strict),
        .target(name: "AFTracing", dependencies: ["AFCore", .product(name: "Tracing", package: "swift-distributed-tracing")],
                path: "Plugins/AFTracing", swiftSettings: strict),
        .target(name: "AFServiceLifecycle", dependencies: ["AFCore", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                                   .product(name: "UnixSignals", package: "swift-service-lifecycle")],
                path: "Plugins/AFServiceLifecycle", swiftSettings: strict),
        // Loopback servers and helpers shared by the test targets.
        .target(name: "CTestSpawn", path: "Tests/CTestSpawn", cSettings: [.enableWarning("all"), .treatAllWarnings(as: .error)]),
        .target(name: "AFTestSupport", dependencies: ["AFCore", "CTestSpawn"], path: "Tests/AFTestSupport", swiftSettings: strict),
        .testTarget(name: "AFCoreTests", dependencies: ["AFCore", "AFTestSupport", "CCurlShim"], swiftSettings: strict),
        .testTarget(name: "AFMultipartTests", dependencies: ["AFMultipart", "AFTestSupport"], swiftSettings: strict),
        .testTarget(name: "AFTrustTests", dependencies: ["AFTrust", "AFTestSupport"], swiftSettings: strict),
        .testTarget(name: "AFCacheTests", dependencies: ["AFCache", "AFTestSupport"], swiftSettings: strict),
        .testTarget(name: "AFAuthTests", dependencies: ["AFAuth", "AFTestSupport"], swiftSettings: strict),
        .testTarget(name: "AFPluginTests",
                    dependencies: ["AFCore", "AFLogging", "AFMetrics", "AFTracing", "AFTestSupport",
                                   .product(name: "Logging", package: "swift-log"),
                                   .product(name: "Metrics", package: "swift-metrics"),
                                   .product(name: "MetricsTestKit", package: "swift-metrics"),
                                   .product(name: "Tracing", package: "swift-distributed-tracing"),
                                   .product(name: "InMemoryTracing", package: "swift-distributed-tracing")],
                    swiftSettings: strict),
        .testTarget(name: "AFServiceLifecycleTests",
                    dependencies: ["AFServiceLifecycle", "AFTestSupport",
                                   .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                   .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                                   .product(name: "Logging", package: "swift-log")],
                    swiftSettings: strict),
        // Code written for Alamofire, compiled unchanged against AFCore's public API.
        .testTarget(name: "AlamofireCodeTests",
                    dependencies: ["AFCore", "AFTrust", "AFMultipart", "AFReachability", "AFTestSupport"], swiftSettings: strict),
        .testTarget(name: "AFOpenAPITests",
                    dependencies: ["AFOpenAPI", "AFCache", "AFTestSupport", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                                   .product(name: "HTTPTypes", package: "swift-http-types")],
                    swiftSettings: strict,
                    plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]),
        .testTarget(name: "AFCombineTests", dependencies: ["AFCombine", "AFTestSupport"], swiftSettings: strict),
        // Runs the built `af` tool (the dependency makes sure it is built first).
        .testTarget(name: "AFCLITests", dependencies: ["af", "AFTestSupport"], swiftSettings: strict),
        // The code of each product's documentation page and article, compiled (never run): see
        // scripts/check-doc-examples.py, which keeps the pages and these files the same.
        .testTarget(name: "DocExamplesTests",
                    dependencies: ["AFCore", "AFAuth", "AFCache", "AFTrust", "AFMultipart", "AFReachability", "AFCombine",
                                   "AFOpenAPI", "AFLogging", "AFMetrics", "AFTracing", "AFServiceLifecycle",
                                   .product(name: "OpenCombine", package: "OpenCombine"),
                                   .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                                   .product(name: "HTTPTypes", package: "swift-http-types"),
                                   .product(name: "Logging", package: "swift-log"),
                                   .product(name: "Metrics", package: "swift-metrics"),
                                   .product(name: "Tracing", package: "swift-distributed-tracing"),
                                   .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
                    swiftSettings: strict),
        .testTarget(name: "AFReachabilityTests", dependencies: ["AFReachability", "CNetlink", "AFTestSupport"], swiftSettings: strict),
        // What each fuzz target does with one input (scripts/fuzz.sh); the suite replays the corpus.
        .target(name: "AFFuzzTargets", dependencies: ["AFCore", "AFTrust", "CNetlink"], path: "Fuzz/Targets", swiftSettings: strict),
        .testTarget(name: "AFFuzzTests", dependencies: ["AFFuzzTargets"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer's driver, built only by scripts/fuzz.sh (AF_FUZZ=1, with -sanitize=fuzzer): it has no
// main of its own, so a normal build must not see it.
if Context.environment["AF_FUZZ"] != nil {
    package.targets.append(.executableTarget(name: "af-fuzz", dependencies: ["AFFuzzTargets"], path: "Fuzz/Driver",
                                             swiftSettings: strict + [.unsafeFlags(["-parse-as-library"])]))
}
