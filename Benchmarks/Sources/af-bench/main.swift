// Runs AF and its peers (raw libcurl, AsyncHTTPClient, Foundation's URLSession) side by side
// against the project's servers on loopback and prints one table per kind of workload, with
// AF's ratio to each peer. The request workloads also run `skeleton-bench`: the ceiling of AF's
// shape (its thread hand-offs and response type, none of its work), and a floor under any
// implementation of Alamofire's API (the same hand-offs plus the work that API obliges).
//
// usage: af-bench [--repeat N] [--scale X] [--only requests|transfers|cache|scale] [--soak]
//   --repeat N  runs per client and workload; the median by requests/s or MB/s is reported (default 3)
//   --scale X   multiplies the request counts and the transfer size (default 1.0; 0.1 for a quick look);
//               the long-poll sizes (1,000, 5,000, 10,000) stop at 10,000 × X (at least 1,000)
//   --only K    runs one kind of workload
//   --soak      instead: 10^6 requests (times X), sequential then 64 in flight, 1 % cancelled at
//               random moments; memory, descriptors and threads every 100k, and their growth

import BenchSupport
import Foundation

struct Options {
    var repeats = 3
    var scale = 1.0
    var only: String?
    var soak = false

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--repeat":
                guard let value = iterator.next().flatMap(Int.init), value > 0 else { throw BenchError("--repeat needs a positive integer") }
                repeats = value
            case "--scale":
                guard let value = iterator.next().flatMap(Double.init), value > 0 else { throw BenchError("--scale needs a positive number") }
                scale = value
            case "--soak":
                soak = true
            case "--only":
                guard let value = iterator.next(), ["requests", "transfers", "cache", "scale"].contains(value) else {
                    throw BenchError("--only takes requests, transfers, cache or scale")
                }
                only = value
            default:
                throw BenchError("unknown argument \(argument); usage: af-bench [--repeat N] [--scale X] [--only requests|transfers|cache|scale] [--soak]")
            }
        }
    }

    func includes(_ kind: String) -> Bool { only == nil || only == kind }
}

/// The four clients, AF first: each a separate executable built beside this one.
struct Clients {
    let af, curl, ahc, urlSession: ClientRunner
    var all: [ClientRunner] { [af, curl, ahc, urlSession] }
    /// Request workloads only: AF's other idiomatic forms (`validate().responseData` reading only
    /// the result; async/await; the result form on a Session with an adapter and an event
    /// monitor), each compared with the peers like `af`.
    let afForms: [ClientRunner]
    /// Request workloads only: `skeleton-bench`, the fewest thread hand-offs Alamofire's contract
    /// allows with none of AF's work, without and with the HTTPURLResponse every handler gets.
    let skeletons: [ClientRunner]
    /// The skeletons that build the response: the best of them is the ceiling for AF's API.
    let ceilings: [ClientRunner]
    /// The skeletons that also do the per-request work Alamofire's API obliges (a `URLRequest`,
    /// the default headers, the four notifications, the body as `Data`, validation), each part
    /// as cheaply as it can be done: the best of them is a floor under any implementation of
    /// that API on these trips, for the forms that read no `HTTPURLResponse`.
    let floors: [ClientRunner]
    /// The same skeletons building the `HTTPURLResponse` the handler reads: the floor for the
    /// status + metrics form.
    let responseFloors: [ClientRunner]
    /// The same skeletons awaiting each request in a Swift task: the floor for the async form.
    let awaitFloors: [ClientRunner]

    init(directory: URL) {
        let afPath = directory.appendingPathComponent("af-bench-client")
        af = ClientRunner(name: "AF", executable: afPath)
        afForms = [ClientRunner(name: "AF validate, result only", executable: afPath, extraArguments: ["result"]),
                   ClientRunner(name: "AF async/await", executable: afPath, extraArguments: ["async"]),
                   ClientRunner(name: "AF with adapter + monitor", executable: afPath, extraArguments: ["hooked"])]
        curl = ClientRunner(name: "libcurl (C, multi)", executable: directory.appendingPathComponent("curl-multi-bench"))
        ahc = ClientRunner(name: "AsyncHTTPClient", executable: directory.appendingPathComponent("ahc-bench-client"))
        var urlSession = ClientRunner(name: "URLSession (Foundation)", executable: directory.appendingPathComponent("urlsession-bench-client"))
        urlSession.trustsSystemBundleOnly = true
        self.urlSession = urlSession
        let skeletonPath = directory.appendingPathComponent("skeleton-bench")
        let shapes = [("engine thread", "min-hops"), ("shared multi", "shared")]
        ceilings = shapes.map { name, shape in
            ClientRunner(name: "skeleton: \(name) + HTTPURLResponse", executable: skeletonPath,
                         extraArguments: [shape + "+response"])
        }
        let floorShapes = [("AF's trips", "af-hops"), ("engine thread", "min-hops"), ("shared multi", "shared")]
        floors = floorShapes.map { name, shape in
            ClientRunner(name: "skeleton: \(name) + Alamofire's work", executable: skeletonPath,
                         extraArguments: [shape + "+contract"])
        }
        responseFloors = floorShapes.map { name, shape in
            ClientRunner(name: "skeleton: \(name) + Alamofire's work + HTTPURLResponse", executable: skeletonPath,
                         extraArguments: [shape + "+contract+response"])
        }
        awaitFloors = floorShapes.map { name, shape in
            ClientRunner(name: "skeleton: \(name) + Alamofire's work, awaited", executable: skeletonPath,
                         extraArguments: [shape + "+contract+await"])
        }
        skeletons = zip(shapes, ceilings).flatMap { shape, ceiling in
            [ClientRunner(name: "skeleton: \(shape.0)", executable: skeletonPath, extraArguments: [shape.1]), ceiling]
        } + floors + responseFloors + awaitFloors
    }
}

/// Builds the whole benchmark package in release (`swift run` builds only af-bench itself): the
/// README's one command works on a fresh clone, and a run never measures clients built from
/// older sources (an up-to-date build takes seconds).
func buildClients(package: URL) throws {
    FileHandle.standardError.write(Data("af-bench: building the benchmark clients (release)...\n".utf8))
    let build = Process()
    build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    build.arguments = ["swift", "build", "-c", "release", "--package-path", package.path]
    build.standardOutput = FileHandle.standardError
    try build.run()
    build.waitUntilExit()
    guard build.terminationStatus == 0 else { throw BenchError("building the benchmark clients failed") }
}

func run() throws {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let clients = Clients(directory: binaries)
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    try buildClients(package: package)
    let script = package.deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/servers.py")
    let fixture = try Fixture(script: script)
    defer { fixture.stop() }

    if options.soak {
        print(try soakTable(fixture: fixture, client: clients.af, scale: options.scale).markdown)
        return
    }
    if options.includes("requests") {
        let (table, summary) = try requestTables(fixture: fixture, clients: clients, options: options)
        print(table.markdown, summary.markdown, "", separator: "\n\n")
    }
    if options.includes("transfers") {
        print(try transferTable(fixture: fixture, clients: clients, scale: options.scale, repeats: options.repeats).markdown, "", separator: "\n")
    }
    if options.includes("cache") {
        print(try cacheTable(fixture: fixture, clients: clients, scale: options.scale).markdown, "", separator: "\n")
        print(try cacheBodyTable(fixture: fixture, client: clients.af, scale: options.scale).markdown)
    }
    if options.includes("scale") {
        let longPoll = package.deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/longpoll.py")
        print("", try scaleTable(script: longPoll, clients: clients, scale: options.scale, repeats: options.repeats).markdown,
              separator: "\n")
    }
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("af-bench: \(error)\n".utf8))
    exit(1)
}
