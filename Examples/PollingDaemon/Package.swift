// swift-tools-version: 6.2
// An example daemon on AF (see README.md): its own package, depending on AF by path.
import PackageDescription

let package = Package(
    name: "PollingDaemon",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "AF", path: "../.."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        .executableTarget(
            name: "PollingDaemon",
            dependencies: [
                .product(name: "AFCore", package: "AF"),
                .product(name: "AFAuth", package: "AF"),
                .product(name: "AFCache", package: "AF"),
                .product(name: "AFReachability", package: "AF"),
                .product(name: "AFLogging", package: "AF"),
                .product(name: "AFMetrics", package: "AF"),
                .product(name: "AFServiceLifecycle", package: "AF"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
        // The daemon of AFCore's Daemons article, word for word (check.sh compares them).
        .executableTarget(
            name: "SyncDaemon",
            dependencies: [
                .product(name: "AFCore", package: "AF"),
                .product(name: "AFAuth", package: "AF"),
                .product(name: "AFCache", package: "AF"),
                .product(name: "AFReachability", package: "AF"),
                .product(name: "AFServiceLifecycle", package: "AF"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
