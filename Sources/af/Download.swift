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
        let destination: DownloadRequest.Destination = { _, _ in (target, [.removePreviousFile, .createIntermediateDirectories]) }
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
                                       headers: RequestItem.headers(invocation.items), to: destination)
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
        if invocation.verbose, let metrics = response.metrics { output.timings(metrics) }
        if let error = response.error {
            return output.failure(output.describe(error), status: error.isExplicitlyCancelledError ? 130 : 3)
        }
        output.note("af: saved \(target.path)")
        return Output.status(for: response.response?.statusCode)
    }

    /// The file name the URL suggests (its last path component), else "index.html".
    static func name(for url: URL) -> String {
        let last = url.lastPathComponent
        return last.isEmpty || last == "/" ? "index.html" : last
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
