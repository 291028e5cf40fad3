import AFCore

struct Release: Decodable, Sendable {
    let tag: String
    let prerelease: Bool
}

// Sources/AFCore/AFCore.docc/AFCore.md
func afCoreExample() async throws {
    // One Session for as long as its requests run: they end when it goes away.
    let configuration = URLSessionConfiguration.af.default
    configuration.timeoutIntervalForRequest = 15
    let session = Session(configuration: configuration, interceptor: RetryPolicy())

    let release = try await session.request("https://api.example.com/v1/releases/latest",
                                            headers: [.accept("application/json")])
        .validate()
        .serializingDecodable(Release.self)
        .value
    print(release.prerelease ? "\(release.tag) (prerelease)" : release.tag)
}
