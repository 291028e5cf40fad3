@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A download past the process's file size limit (`ulimit -f`) fails with a clear error; the
/// kernel's SIGXFSZ would otherwise kill the process. Runs in a child process, which alone gets
/// the limit.
@Suite(.timeLimit(.minutes(1))) struct FileSizeLimitTests {
    @Test func aDownloadPastTheFileSizeLimitFailsInsteadOfKillingTheProcess() async throws {
        let servers = TestServers.shared
        let description = FileManager.default.temporaryDirectory.appendingPathComponent("af-servers-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: description) }
        try JSONSerialization.data(withJSONObject: servers.all).write(to: description)
        setenv("AF_TEST_SERVERS", description.path, 1)
        await #expect(processExitsWith: .success) {
            var limit = rlimit(rlim_cur: 256 << 10, rlim_max: 256 << 10)
            guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { _exit(3) }
            // Dispatch's threads block SIGXFSZ already, and a new thread inherits its creator's
            // mask: unblock it here so the engine thread must block it itself.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGXFSZ)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            let session = makeSession()
            let response = await session.download(Server.http("/static/1mb.bin")).serializingData().response
            // The failed download stays resumable: its partial file is the user's to keep or drop.
            if let partial = response.resumeData.flatMap(DownloadResumeData.init)?.partialFile {
                try? FileManager.default.removeItem(at: partial)
            }
            // _exit: the child only reports; atexit work (a leak checker's report) is not its business.
            _exit(response.error?.urlErrorCode == .cannotWriteToFile ? 0 : 4)
        }
    }
}
