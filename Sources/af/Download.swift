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
        guard let name = invocation.output ?? Self.unusedName(for: url) else {
            return output.failure("no free name for \(Self.name(for: url)): choose the file with -o", status: 6)
        }
        let target = URL(fileURLWithPath: name)
        let resumeFile = URL(fileURLWithPath: target.path + ".af-resume")
        // An answer other than 2xx is not saved as the file (unless --download-errors): it goes
        // to a file of its own, removed once its status is known.
        let errorFile = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("af-error-\(UUID().uuidString)")
        let keepsErrors = invocation.downloadErrors
        let options: DownloadRequest.Options = invocation.output == nil ? [] : [.removePreviousFile, .createIntermediateDirectories]
        let destination: DownloadRequest.Destination = { _, response in
            (200..<300).contains(response.statusCode) || keepsErrors ? (target, options) : (errorFile, [])
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
            return output.failure(output.describe(error, verbose: invocation.verbose), status: error.isExplicitlyCancelledError ? 130 : 3)
        }
        let code = response.response?.statusCode ?? 0
        if !(200..<300).contains(code), !keepsErrors {
            let status = Output.status(for: code)
            return output.failure("the server answered \(code): nothing saved", status: status == 0 ? 3 : status)
        }
        output.note("af: saved \(target.path)")
        return Output.status(for: code)
    }

    /// The name for a download of `url` when none is given: the URL's name, or that name with
    /// `-1`, `-2`… (as httpie does) when a file has it, unless an interrupted download of it can
    /// be resumed. Nil when the first thousand are all taken.
    static func unusedName(for url: URL) -> String? {
        let base = name(for: url)
        let files = FileManager.default
        for index in 0..<1000 {
            let candidate = index == 0 ? base : "\(base)-\(index)"
            if !files.fileExists(atPath: candidate) || files.fileExists(atPath: candidate + ".af-resume") { return candidate }
        }
        return nil
    }

    /// The file name the URL suggests, in the working directory: its last path segment as sent
    /// (percent-encoded, so it holds no `/`), "index.html" when there is none or it is `.` or `..`.
    static func name(for url: URL) -> String {
        let segment = url.path(percentEncoded: true).split(separator: "/").last.map(String.init) ?? ""
        let safe = segment.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0 != "\\" && $0.value != 0x7F }
        return segment.isEmpty || segment == "." || segment == ".." || !safe ? "index.html" : segment
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
