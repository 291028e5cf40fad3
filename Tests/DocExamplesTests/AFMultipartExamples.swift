import AFMultipart

struct Receipt: Decodable, Sendable {
    let id: String
}

// Sources/AFMultipart/AFMultipart.docc/AFMultipart.md
func afMultipartExample(archiveURL: URL) async throws {
    let receipt = try await AF.upload(multipartFormData: { form in
        form.append(Data("nightly".utf8), withName: "label")
        form.append(archiveURL, withName: "archive", fileName: "logs.tar.gz", mimeType: "application/gzip")
    }, to: "https://api.example.com/v1/uploads")
        .validate()
        .serializingDecodable(Receipt.self)
        .value
    print("stored as \(receipt.id)")
}
