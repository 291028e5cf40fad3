import Dispatch

extension DispatchQueue {
    /// Where async/await completions are delivered: any thread, no hop to `.main`.
    static let asyncCompletion = DispatchQueue(label: "org.alamofire.concurrencyQueue", attributes: .concurrent)
}
