import AFTestSupport
import Foundation
import Testing

/// The "rev-revocable" certificate of the matrix, revoked and reinstated by editing the revocation
/// CA's database, which its OCSP responder reads.
struct RevocableCertificate {
    private let directory: String
    private let serial: String

    init() throws {
        directory = TestServers.shared.all["directory"]! + "/revocation"
        let output = try Self.openssl(["x509", "-noout", "-serial", "-in", "\(directory)/rev-revocable.pem"])
        serial = try #require(output.split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
    }

    /// Marks the certificate revoked (or valid) in the database, then waits until the responder
    /// answers so: it rereads the database between requests, after it changed.
    func setRevoked(_ revoked: Bool) async throws {
        let index = URL(fileURLWithPath: "\(directory)/ca/index.txt")
        let lines = try String(contentsOf: index, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let updated = lines.map { line -> String in
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4, fields[3] == serial else { return String(line) }
            fields[0] = revoked ? "R" : "V"
            fields[2] = revoked ? "250101000000Z" : ""
            return fields.joined(separator: "\t")
        }
        let previous = try FileManager.default.attributesOfItem(atPath: index.path)[.modificationDate] as? Date ?? Date()
        try updated.joined(separator: "\n").write(to: index, atomically: true, encoding: .utf8)
        // The responder compares modification times in whole seconds.
        try FileManager.default.setAttributes([.modificationDate: max(Date(), previous.addingTimeInterval(2))],
                                              ofItemAtPath: index.path)
        let expected = revoked ? "rev-revocable.pem: revoked" : "rev-revocable.pem: good"
        let url = try Self.openssl(["x509", "-noout", "-ocsp_uri", "-in", "\(directory)/rev-revocable.pem"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        for _ in 0..<20 {
            let answer = try Self.openssl(["ocsp", "-issuer", "\(directory)/revocation-ca.pem",
                                           "-cert", "\(directory)/rev-revocable.pem", "-url", url,
                                           "-CAfile", TestServers.shared.caFile, "-no_nonce"], in: directory)
            if answer.contains(expected) { return }
        }
        Issue.record("the OCSP responder never answered \"\(expected)\"")
    }

    private static func openssl(_ arguments: [String], in directory: String? = nil) throws -> String {
        try runProgram("/usr/bin/openssl", arguments, directory: directory).text
    }
}
