import AFReachability

// Sources/AFReachability/AFReachability.docc/AFReachability.md
func afReachabilityExample() async {
    // A lost connection is sent again after a short back-off; with no network at all, a request
    // waits up to a minute for one instead of failing.
    let session = Session(interceptor: Interceptor(retriers: [RetryPolicy(), OfflineRetrier(maximumWait: .seconds(60))]))

    // The app's own view of the network, for as long as it keeps `network`.
    let network = NetworkReachabilityManager(host: "api.example.com")
    network?.startListening(onQueue: .global()) { status in
        print("api.example.com: \(status)")
    }

    let report = await session.request("https://api.example.com/v1/report").validate().serializingData().response
    print(report.result)
}
