import AFCore
import AFTracing
import Tracing

// Plugins/AFTracing/AFTracing.docc/AFTracing.md
func afTracingExample(tracer: any Tracer) async throws {
    InstrumentationSystem.bootstrap(tracer)   // once per process, before the plugin is made

    // One plugin, installed twice: as an adapter it starts the request's span and injects its
    // context into every attempt; as a monitor it ends the span with the request's outcome.
    let tracing = TracingPlugin()
    let session = Session(interceptor: Interceptor(adapters: [tracing], retriers: [RetryPolicy()]),
                          eventMonitors: [tracing])
    let items = try await session.request("https://api.example.com/v1/items").validate().serializingData().value
    print(items.count)
}
