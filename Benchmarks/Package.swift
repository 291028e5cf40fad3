// swift-tools-version:6.2
import PackageDescription

// Side-by-side benchmarks: AF against raw libcurl on the project's nginx. Build in release:
//   swift run -c release af-bench
let package = Package(
    name: "AFBenchmarks",
    dependencies: [.package(name: "AF", path: "..")],
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
                           .product(name: "AFCache", package: "AF")]
        ),
        .executableTarget(
            name: "curl-multi-bench",
            dependencies: ["CurlSystem"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
