import AFCore
import Foundation

/// The input as resume data. Checks: what AF accepts names only a file directly inside the
/// temporary directory, with a non-negative offset, and reads back the same after re-encoding.
enum ResumeDataFuzz {
    static func run(_ input: Data) -> [String] {
        guard let resume = DownloadResumeData(input) else { return [] }
        var problems: [String] = []
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path
        let partial = resume.partialFile.standardizedFileURL
        if partial.deletingLastPathComponent().path != temporary { problems.append("partial file outside the temporary directory: \(partial.path)") }
        if resume.offset < 0 { problems.append("offset \(resume.offset)") }
        if let encoded = try? JSONEncoder().encode(resume) {
            if DownloadResumeData(encoded) != resume { problems.append("does not survive re-encoding") }
        } else {
            problems.append("cannot be encoded again")
        }
        return problems
    }
}
