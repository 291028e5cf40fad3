import AFCore

// Sources/AFCore/AFCore.docc/GettingStarted.md

struct Repo: Decodable { let name: String }

// Requests
func gettingStartedRequestsExample() async throws {
    let repo = try await AF.request("https://api.example.com/repos/1")
        .validate()
        .serializingDecodable(Repo.self)
        .value

    AF.request("https://api.example.com/repos", method: .post,
               parameters: ["name": "af"], encoder: JSONParameterEncoder.default)
        .validate()
        .responseDecodable(of: Repo.self, queue: .global()) { response in
            print(response.result)
        }
    _ = repo
}

// A Session of your own
func gettingStartedSessionExample() {
    let configuration = URLSessionConfiguration.af.default
    configuration.timeoutIntervalForRequest = 10
    let session = Session(configuration: configuration, interceptor: RetryPolicy())
    _ = session
}

// Add AF to a package: lines of a package manifest, which only the manifest can import
// PackageDescription for. `ManifestLine` below has the labels and argument types of
// PackageDescription's `Package.Dependency.package(url:from:)` and
// `Target.Dependency.product(name:package:)`, so the lines compile as they do in a manifest.
func gettingStartedManifestExample() {
    let manifestLines: [ManifestLine] = [
        .package(url: "https://github.com/<owner>/AF", from: "0.1.0"),
        // in a target:
        .product(name: "AFCore", package: "AF"),
    ]
    _ = manifestLines
}

private struct ManifestLine {
    struct Version: ExpressibleByStringLiteral {
        init(stringLiteral value: String) {}
    }

    static func package(url: String, from version: Version) -> ManifestLine { ManifestLine() }
    static func product(name: String, package: String) -> ManifestLine { ManifestLine() }
}
