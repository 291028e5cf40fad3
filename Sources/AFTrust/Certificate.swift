import CCurlShim
import Foundation

/// An X.509 certificate, held as its DER encoding: AF's counterpart of `SecCertificate`.
public struct Certificate: Hashable, Sendable {
    /// Why a certificate could not be read.
    public enum ReadingError: Error, Sendable {
        /// The bytes are not a DER certificate OpenSSL can read.
        case invalidDER
        /// The text holds no `-----BEGIN CERTIFICATE-----` block, or one that is not base64.
        case noCertificateInPEM
        /// The file or directory could not be read.
        case unreadable(URL, underlying: any Error)
    }

    /// The DER encoding.
    public let derData: Data

    /// A certificate from its DER encoding.
    public init(derEncoded data: Data) throws {
        guard !data.isEmpty, data.withUnsafeBytes({ afc_x509_is_valid($0.bindMemory(to: UInt8.self).baseAddress!, $0.count) }) == 1 else {
            throw ReadingError.invalidDER
        }
        derData = data
    }

    /// The first certificate of a PEM text.
    public init(pemEncoded text: String) throws {
        guard let first = try Self.certificates(pemEncoded: text).first else { throw ReadingError.noCertificateInPEM }
        self = first
    }

    /// Every certificate of a PEM text (a bundle), in order.
    public static func certificates(pemEncoded text: String) throws -> [Certificate] {
        let begin = "-----BEGIN CERTIFICATE-----", end = "-----END CERTIFICATE-----"
        var certificates: [Certificate] = []
        var rest = Substring(text)
        while let start = rest.range(of: begin), let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) {
            let body = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            guard let der = Data(base64Encoded: String(body)) else { throw ReadingError.noCertificateInPEM }
            certificates.append(try Certificate(derEncoded: der))
            rest = rest[stop.upperBound...]
        }
        guard !certificates.isEmpty else { throw ReadingError.noCertificateInPEM }
        return certificates
    }

    /// Every certificate in a file (PEM bundle or DER) or, for a directory, in its `.pem`, `.crt`,
    /// `.cer` and `.der` files (not recursively), sorted by file name.
    public static func certificates(at url: URL) throws -> [Certificate] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ReadingError.unreadable(url, underlying: CocoaError(.fileNoSuchFile))
        }
        guard isDirectory.boolValue else { return try certificates(inFile: url) }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw ReadingError.unreadable(url, underlying: error)
        }
        return try names.sorted()
            .filter { ["pem", "crt", "cer", "der"].contains(($0 as NSString).pathExtension.lowercased()) }
            .flatMap { try certificates(inFile: url.appendingPathComponent($0)) }
    }

    private static func certificates(inFile url: URL) throws -> [Certificate] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ReadingError.unreadable(url, underlying: error)
        }
        if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN CERTIFICATE-----") {
            return try certificates(pemEncoded: text)
        }
        return [try Certificate(derEncoded: data)]
    }

    /// The certificate's public key.
    public var publicKey: PublicKey? {
        var spki: UnsafeMutablePointer<UInt8>?
        let length = derData.withUnsafeBytes { afc_x509_spki($0.bindMemory(to: UInt8.self).baseAddress!, $0.count, &spki) }
        guard length > 0, let spki else { return nil }
        defer { afc_free(spki) }
        return PublicKey(spkiDERData: Data(bytes: spki, count: length))
    }

    /// Whether the certificate is valid for `host` (DNS name or IP address, wildcards honoured).
    public func isValid(forHost host: String) -> Bool {
        derData.withUnsafeBytes { afc_x509_check_host($0.bindMemory(to: UInt8.self).baseAddress!, $0.count, host) } == 1
    }
}

extension ServerTrust {
    /// The chain as certificates, leaf first.
    public var certificates: [Certificate] {
        certificateData.compactMap { try? Certificate(derEncoded: $0) }
    }
}

extension Bundle: AlamofireExtended {}

extension AlamofireExtension where ExtendedType: Bundle {
    /// Every certificate in the bundle's `.cer`, `.crt`, `.der` and `.pem` files (a PEM file may
    /// hold several); files that hold none are skipped.
    public var certificates: [Certificate] {
        paths(forResourcesOfTypes: [".cer", ".CER", ".crt", ".CRT", ".der", ".DER", ".pem", ".PEM"]).sorted()
            .flatMap { path in (try? Certificate.certificates(at: URL(fileURLWithPath: path))) ?? [] }
    }

    /// The public keys of `certificates`.
    public var publicKeys: [PublicKey] {
        certificates.compactMap(\.publicKey)
    }

    /// The paths of the bundle's resources with the given file name extensions (with or
    /// without their dot), each once.
    public func paths(forResourcesOfTypes types: [String]) -> [String] {
        Array(Set(types.flatMap { type.paths(forResourcesOfType: $0.hasPrefix(".") ? String($0.dropFirst()) : $0, inDirectory: nil) }))
    }
}
