import AFCache

// Sources/AFCore/AFCore.docc/Caching.md
func cachingExample() throws {
    let configuration = URLSessionConfiguration.af.default
    configuration.urlCache = try SQLiteURLCache(fileURL: URL(fileURLWithPath: "/var/cache/mydaemon/http.sqlite"))
    let session = Session(configuration: configuration)
    _ = session
}
