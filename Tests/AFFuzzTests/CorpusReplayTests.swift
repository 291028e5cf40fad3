import AFFuzzTargets
import Foundation
import Testing

/// Every fuzz target on its seed corpus (`Fuzz/Corpus/NAME`) and on what fuzzing found
/// (`Fuzz/Found/NAME`, kept once fixed): no invariant broken, no crash.
@Suite struct CorpusReplayTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    static func inputs(_ target: FuzzTarget, in folder: String) -> [URL] {
        let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func theCorpusAndTheFindingsPass(_ target: FuzzTarget) throws {
        let seeds = Self.inputs(target, in: "Corpus")
        #expect(!seeds.isEmpty, "\(target.rawValue) has no seed corpus")
        for input in seeds + Self.inputs(target, in: "Found") {
            let problems = target.run(try Data(contentsOf: input))
            #expect(problems.isEmpty, "\(target.rawValue) \(input.lastPathComponent): \(problems)")
        }
    }
}
