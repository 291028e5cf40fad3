import AFTestSupport
import Foundation
import Testing

/// A Unix socket the caller may not connect to gives the same clear failure as a missing one,
/// naming the socket. Root connects to any socket, so as root the tool runs as `nobody`.
@Suite(.timeLimit(.minutes(1))) struct UnixSocketPermissionTests {
    /// A listening socket at a new path with mode 000 (no one but root may connect).
    private static func forbiddenSocket() throws -> (path: String, descriptor: Int32) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("af-perm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o755])
        let path = directory.appendingPathComponent("api.sock").path
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path.utf8.prefix(buffer.count - 1))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0 && listen(descriptor, 4) == 0 && chmod(path, 0) == 0)
        return (path, descriptor)
    }

    @Test func aSocketWithoutPermissionIsNamedInTheFailure() throws {
        let (path, descriptor) = try Self.forbiddenSocket()
        defer {
            close(descriptor)
            try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        }
        let host = path.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let launcher = geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let run = try CLITests.af(["http+unix://\(host)/get"], launcher: launcher)
        #expect(run.status != 0)
        #expect(run.errors.contains("cannot connect to the Unix socket at \(path)"), "\(run.errors)")
        #expect(!run.output.contains("200"), "nothing was received")
    }
}
