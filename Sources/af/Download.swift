import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `--download`: the body to a file, a progress bar on standard error, and resumption. An
/// interrupted download (Ctrl-C, a lost connection) leaves `<file>.af-resume`; the next run with
/// the same file continues from there.
struct Download {
    let invocation: Invocation
    let output: Output

    func run(_ url: URL, on session: Session) async -> Int32 {
        let target = URL(fileURLWithPath: invocation.output ?? Self.name(for: url))
        let resumeFile = URL(fileURLWithPath: target.path + ".af-resume")
        // A name the server chose never replaces a file (curl -O and wget alike would): -o names
        // the file to replace.
        if invocation.output == nil, FileManager.default.fileExists(atPath: target.path),
           !FileManager.default.fileExists(atPath: resumeFile.path) {
            return output.failure("\(target.path) exists: choose the file with -o", status: 6)
        }
        // An error answer (4xx, 5xx) is not saved as the file: it goes to a file of its own,
        // removed once its status is known.
        let errorFile = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("af-error-\(UUID().uuidString)")
        let options: DownloadRequest.Options = invocation.output == nil ? [] : [.removePreviousFile, .createIntermediateDirectories]
        let destination: DownloadRequest.Destination = { _, response in
            response.statusCode >= 400 ? (errorFile, []) : (target, options)
        }
        let request: DownloadRequest
        let saved = try? Data(contentsOf: resumeFile)
        // A resume file is trusted only for the URL asked for now (as `curl -C -` does): one
        // planted or left by another download must not make this run fetch something else.
        if let saved, let point = DownloadResumeData(saved), point.url.absoluteString == url.absoluteString {
            output.note("af: resuming \(target.path)")
            request = session.download(resumingWith: saved, to: destination)
        } else {
            if let saved {
                output.note("af: \(resumeFile.path) is not for \(url.absoluteString): starting afresh")
                try? FileManager.default.removeItem(at: resumeFile)
                // The partial download it named (one of AF's, in the temporary directory) has no
                // other way back: it goes with the resume file.
                if let stale = DownloadResumeData(saved) { try? FileManager.default.removeItem(at: stale.partialFile) }
            }
            request = session.download(url, method: HTTPMethod(rawValue: invocation.effectiveMethod),
                                       headers: invocation.headers, to: destination)
        }
        let bar = ProgressBar()
        request.downloadProgress(queue: DispatchQueue(label: "af.progress")) { bar.show($0) }
        let interrupt = Self.cancelOnInterrupt(request)
        let response = await request.serializingDownloadedFileURL().response
        interrupt.cancel()
        bar.finish()

        if let resumeData = response.resumeData ?? request.resumeData {
            try? resumeData.write(to: resumeFile)
            output.note("af: interrupted; run the same command again to resume (\(resumeFile.path))")
        } else {
            try? FileManager.default.removeItem(at: resumeFile)
        }
        if let http = response.response {
            output.note("\(response.metrics?.transactionMetrics.last?.networkProtocolName ?? "HTTP") \(http.statusCode)")
        }
        if invocation.verbose, let http = response.response { output.headers(http) }
        if invocation.verbose, let metrics = response.metrics { output.timings(metrics) }
        try? FileManager.default.removeItem(at: errorFile)
        if let error = response.error {
            return output.failure(output.describe(error), status: error.isExplicitlyCancelledError ? 130 : 3)
        }
        let status = Output.status(for: response.response?.statusCode)
        if status != 0 { return output.failure("the server answered \(response.response?.statusCode ?? 0): nothing saved", status: status) }
        output.note("af: saved \(target.path)")
        return status
    }

    /// The file name the URL suggests, in the working directory: its last path segment as sent,
    /// decoded, with `/`, `\\` and control characters as `_` and leading dots dropped (no name
    /// reaches another directory or hides); "index.html" when nothing is left.
    static func name(for url: URL) -> String {
        let segment = url.path(percentEncoded: true).split(separator: "/").last.map(String.init) ?? ""
        let decoded = segment.removingPercentEncoding ?? segment
        var name = ""
        for scalar in decoded.unicodeScalars {
            let unsafe = scalar == "/" || scalar == "\\" || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            name.unicodeScalars.append(unsafe ? "_" : scalar)
        }
        name = String(name.drop { $0 == "." })
        return name.isEmpty ? "index.html" : name
    }

    /// Ctrl-C cancels the download with resume data instead of killing the process.
    private static func cancelOnInterrupt(_ request: DownloadRequest) -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { request.cancel(producingResumeData: true) }
        source.resume()
        return source
    }
}
