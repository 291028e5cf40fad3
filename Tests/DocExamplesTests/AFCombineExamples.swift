import AFCombine
import AFCore
import OpenCombine

struct Forecast: Decodable, Sendable { let summary: String }
struct Warnings: Decodable, Sendable { let active: [String] }

// Sources/AFCombine/AFCombine.docc/AFCombine.md
func afCombineExample(session: Session) -> AnyCancellable {
    // Both requests run at once; Zip pairs their responses. Pass `queue:` in a daemon: the
    // default, `.main`, delivers nothing where the main queue never runs.
    let cancellable = Publishers.Zip(
        session.request("https://api.example.com/v1/forecast").publishDecodable(type: Forecast.self, queue: .global()),
        session.request("https://api.example.com/v1/warnings").publishDecodable(type: Warnings.self, queue: .global()))
        .map { forecast, warnings in
            "\(forecast.value?.summary ?? "no forecast"), \(warnings.value?.active.count ?? 0) warnings"
        }
        .sink { line in print(line) }
    // Keep `cancellable` while the requests run: cancelling it, or letting it go, cancels them.
    return cancellable
}
