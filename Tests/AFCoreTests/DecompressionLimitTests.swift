@testable import AFCore
import AFTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Decompression bombs stop early with a clear error, in memory, to file and streamed; ordinary
/// compressible JSON passes; the limit is per Session and can be turned off. The fault server's
/// /inflate codes its body as it sends it.
@Suite(.timeLimit(.minutes(1))) struct DecompressionLimitTests {
    private static let bomb = Server.faults("/inflate?size=\(2 << 30)")  // 2 GiB of zeros, ~2 MB gzip

    /// The URLError inside `error`, when it is the decompression refusal.
    private static func refusal(_ error: AFError?, sourceLocation: SourceLocation = #_sourceLocation) -> URLError? {
        guard case let .sessionTaskFailed(underlying as URLError) = error, underlying.code == .dataLengthExceedsMaximum else {
            Issue.record("expected URLError.dataLengthExceedsMaximum, got \(String(describing: error))",
                         sourceLocation: sourceLocation)
            return nil
        }
        return underlying
    }

    @Test(arguments: ["gzip", "deflate"])
    func aBombIsRefusedAfterTheAllowanceWithAClearError(coding: String) async throws {
        let session = makeSession()
        let response = await session.request(Self.bomb + "&coding=\(coding)").serializingData().response
        let refused = try #require(Self.refusal(response.error))
        let decoded = try #require(refused.userInfo["AFDecodedBytes"] as? Int64)
        #expect(decoded > 1 << 20 && decoded < 4 << 20, "stopped \(decoded) bytes in")
        #expect(refused.localizedDescription.contains("decompression bomb"))
        #expect(response.error?.localizedDescription.contains("200 times") == true)
    }

    @Test func aDownloadToFileIsRefusedAndLeavesNothing() async throws {
        let session = makeSession()
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("af-bomb-\(UUID().uuidString)")
        let response = await session.download(Self.bomb, to: { _, _ in (destination, []) }).serializingDownloadedFileURL().response
        #expect(Self.refusal(response.error) != nil)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(response.resumeData == nil, "a content-coded body cannot be resumed")
    }

    @Test func aStreamIsRefused() async throws {
        let session = makeSession()
        let collector = DataStreamTests.Collector<Data, Never>()
        session.streamRequest(Self.bomb).responseStream(on: DispatchQueue(label: "test.bomb"), stream: collector.handler)
        await collector.completed.wait()
        let refused = try #require(Self.refusal(collector.completion.value?.error))
        let decoded = try #require(refused.userInfo["AFDecodedBytes"] as? Int64)
        let received = try #require(refused.userInfo["AFReceivedBytes"] as? Int64)
        let delivered = Int64(collector.values.value.reduce(0) { $0 + $1.count })
        // The handler got only admitted bytes, and the refusal came by the rule: past the
        // allowance, at most 200 decoded bytes per byte curl had received (what it read ahead
        // included; a paused stream lets it read several chunks ahead), give or take the chunk
        // that crossed, long before the bomb's 2 MB were in.
        #expect(delivered < decoded)
        let limit = DecompressionLimit.default
        #expect(decoded <= Int64(limit.allowance) + Int64(limit.maximumRatio) * received + Int64(64 << 10),
                "\(decoded) decoded for \(received) received")
        #expect(received < 256 << 10, "\(received) bytes received before the refusal")
    }

    @Test func compressibleJSONPasses() async throws {
        let session = makeSession()
        let size = 24 << 20
        let data = try await session.request(Server.faults("/inflate?size=\(size)&content=json")).serializingData().value
        #expect(data.count == size)
    }

    @Test func theLimitIsPerSessionAndCanBeOff() async throws {
        let unlimited = makeSession(decompressionLimit: nil)
        #expect(unlimited.decompressionLimit == nil)
        let size = 64 << 20
        let zeros = try await unlimited.request(Server.faults("/inflate?size=\(size)")).serializingData().value
        #expect(zeros.count == size)

        let strict = makeSession(decompressionLimit: DecompressionLimit(maximumRatio: 2, allowance: 1 << 16))
        let response = await strict.request(Server.faults("/inflate?size=\(1 << 20)&content=json")).serializingData().response
        #expect(Self.refusal(response.error) != nil)
        #expect(makeSession().decompressionLimit == .default)
    }

    @Test func uncodedBodiesAreNotLimited() async throws {
        let strict = makeSession(decompressionLimit: DecompressionLimit(maximumRatio: 1, allowance: 0))
        let data = try await strict.request(Server.faults("/blob?size=\(4 << 20)")).serializingData().value
        #expect(data.count == 4 << 20)
    }

    @Test func theRule() {
        let limit = DecompressionLimit(maximumRatio: 10, allowance: 100)
        #expect(limit.accepts(decoded: 100, received: 0))
        #expect(!limit.accepts(decoded: 101, received: 10))
        #expect(limit.accepts(decoded: 101, received: 11))
        #expect(limit.accepts(decoded: .max, received: .max), "no overflow")
    }
}
