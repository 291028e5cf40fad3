import AFCore
import AFLogging
import Logging

// Plugins/AFLogging/AFLogging.docc/AFLogging.md
func afLoggingExample() async throws {
    LoggingSystem.bootstrap { label in StreamLogHandler.standardError(label: label) }   // once per process
    var logger = Logger(label: "my-daemon.http")
    logger.logLevel = .debug   // adds the request's and the response's headers, credentials masked

    let session = Session(eventMonitors: [LoggingEventMonitor(logger: logger)])
    let items = try await session.request("https://api.example.com/v1/items?api_key=k3y").validate().serializingData().value
    // Logged at info when the request ends:
    // GET https://api.example.com/v1/items?api_key=REDACTED 200 84 ms 2048 B h2
    print(items.count)
}
