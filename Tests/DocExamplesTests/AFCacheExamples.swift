import AFCache

// Sources/AFCache/AFCache.docc/AFCache.md
func afCacheExample() async throws {
    let cache = try SQLiteURLCache(fileURL: URL(fileURLWithPath: "/var/cache/my-daemon/http.sqlite"))
    cache.onFailure = { failure in print("cache: \(failure)") }   // the request itself went on

    let configuration = URLSessionConfiguration.af.default
    configuration.urlCache = cache
    let session = Session(configuration: configuration)

    let response = await session.request("https://api.example.com/v1/catalog").validate().serializingData().response
    switch response.metrics?.transactionMetrics.last?.resourceFetchType {
    case .localCache?: print("fresh in the cache: nothing sent")
    case .revalidatedCache?: print("the stored copy, confirmed by the server (304)")
    default: print("from the server")
    }
}
