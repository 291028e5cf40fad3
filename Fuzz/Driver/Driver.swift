import AFFuzzTargets
import Foundation

// libFuzzer's entry points for the target named by AF_FUZZ_TARGET (scripts/fuzz.sh). SwiftPM
// links an executable's main as `af_fuzz_main`; it hands over to libFuzzer's driver.

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>,
                       _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

nonisolated(unsafe) private var target = FuzzTarget.responseHead

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    let problems = target.run(input)
    if !problems.isEmpty { fatalError("\(target.rawValue): \(problems.joined(separator: "; "))") }
    return 0
}

@_cdecl("af_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    guard let name = ProcessInfo.processInfo.environment["AF_FUZZ_TARGET"], let chosen = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(Data("AF_FUZZ_TARGET must be one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
        return 2
    }
    target = chosen
    var argc = argc
    var argv = argv
    return runDriver(&argc, &argv, fuzzOne)
}
