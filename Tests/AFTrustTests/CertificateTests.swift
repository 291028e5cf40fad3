import AFTestSupport
@testable import AFTrust
import Foundation
import Testing

/// Certificates and public keys: reading PEM, DER and directories; pins.
struct CertificateTests {
    private var matrixDirectory: URL {
        URL(fileURLWithPath: TestServers.shared.all["directory"]! + "/matrix")
    }

    @Test func readsEveryCertificateOfAPEMBundle() throws {
        let bundle = try String(contentsOf: matrixDirectory.appendingPathComponent("intermediate-full.pem"), encoding: .utf8)
        let certificates = try Certificate.certificates(pemEncoded: bundle)
        #expect(certificates.count == 2)
        #expect(try Certificate(pemEncoded: bundle) == certificates[0])
        #expect(certificates[0].isValid(forHost: "localhost"))
        #expect(!certificates[0].isValid(forHost: "example.com"))
    }

    @Test func readsADirectoryOfCertificates() throws {
        let certificates = try Certificate.certificates(at: matrixDirectory)
        // Each *-full.pem holds two (a leaf and the certificate served after it); every other .pem one.
        let files = try FileManager.default.contentsOfDirectory(atPath: matrixDirectory.path).filter { $0.hasSuffix(".pem") }
        #expect(certificates.count == files.count + files.filter { $0.hasSuffix("-full.pem") }.count)
    }

    @Test func derRoundTripsAndGarbageIsRejected() throws {
        let certificate = try Certificate(pemEncoded: String(contentsOf: matrixDirectory.appendingPathComponent("valid.pem"), encoding: .utf8))
        #expect(try Certificate(derEncoded: certificate.derData) == certificate)
        #expect(throws: Certificate.ReadingError.self) { try Certificate(derEncoded: Data("not a certificate".utf8)) }
        #expect(throws: Certificate.ReadingError.self) { try Certificate(pemEncoded: "no PEM here") }
        #expect(throws: Certificate.ReadingError.self) { try Certificate.certificates(at: URL(fileURLWithPath: "/no/such/dir")) }
    }

    @Test func publicKeysCompareBySPKIAndRoundTripThroughPins() throws {
        let leaf = try Certificate(pemEncoded: String(contentsOf: matrixDirectory.appendingPathComponent("valid.pem"), encoding: .utf8))
        let key = try #require(leaf.publicKey)
        #expect(key.pin.hasPrefix("sha256/"))
        #expect(PublicKey(pin: key.pin) == key)
        #expect(PublicKey(pin: "sha256/not-base64!") == nil)
        #expect(PublicKey(pin: "sha1/" + key.sha256.base64EncodedString()) == nil)
        let other = try Certificate(pemEncoded: String(contentsOf: matrixDirectory.appendingPathComponent("self-signed.pem"), encoding: .utf8))
        #expect(other.publicKey != key)
    }

    @Test func pinsMatchWhatCurlComputes() throws {
        // curl --pinnedpubkey and OkHttp use sha256 of the DER SubjectPublicKeyInfo, base64.
        let pem = matrixDirectory.appendingPathComponent("valid.pem").path
        let script = "openssl x509 -in '\(pem)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"
        let expected = try runProgram("/bin/sh", ["-c", script]).text.trimmingCharacters(in: .whitespacesAndNewlines)
        let leaf = try Certificate(pemEncoded: String(contentsOfFile: pem, encoding: .utf8))
        #expect(leaf.publicKey?.pin == "sha256/" + expected)
    }

    @Test func aBundlesCertificatesAndKeysAsAlamofireReadsThem() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("af-bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let valid = matrixDirectory.appendingPathComponent("valid.pem")
        let leaf = try Certificate(pemEncoded: String(contentsOf: valid, encoding: .utf8))
        try FileManager.default.copyItem(at: valid, to: directory.appendingPathComponent("leaf.pem"))
        let other = try Certificate(pemEncoded: String(contentsOf: matrixDirectory.appendingPathComponent("self-signed.pem"),
                                                       encoding: .utf8))
        try other.derData.write(to: directory.appendingPathComponent("other.der"))
        try Data("not a certificate".utf8).write(to: directory.appendingPathComponent("notes.crt"))
        try Data("ignored".utf8).write(to: directory.appendingPathComponent("readme.txt"))

        let bundle = try #require(Bundle(path: directory.path))
        #expect(Set(bundle.af.certificates) == [leaf, other])
        #expect(Set(bundle.af.publicKeys) == Set([leaf.publicKey, other.publicKey].compactMap { $0 }))
        let paths = bundle.af.paths(forResourcesOfTypes: [".pem", "der", ".crt"]).map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(Set(paths) == ["leaf.pem", "other.der", "notes.crt"])
    }
}
