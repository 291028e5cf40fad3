// A reverse proxy whose requests are made by an AF Session with SQLiteURLCache, so the public
// HTTP cache test suite (cache-tests.fyi) can test AF's cache as it tests a browser's:
//   cache-tests-proxy PORT ORIGIN CACHEFILE
// Redirects are passed back, not followed; bodies are relayed decoded (Content-Encoding dropped).
// Run by scripts/cache-tests.sh.

import AFCache
import AFCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import NIOPosix

let arguments = CommandLine.arguments
guard arguments.count == 4, let port = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: cache-tests-proxy PORT ORIGIN CACHEFILE\n".utf8))
    exit(2)
}
let origin = arguments[2]
let configuration = URLSessionConfiguration.af.default
let cache = try SQLiteURLCache(fileURL: URL(fileURLWithPath: arguments[3]))
cache.onFailure = { failure in FileHandle.standardError.write(Data("cache: \(failure)\n".utf8)) }
configuration.urlCache = cache
// The suite's client sends its own headers and keeps no cookies; AF's defaults and cookie
// store would add to them (and a stored cookie changes which cached responses a request sees).
configuration.headers = HTTPHeaders()
configuration.httpCookieStorage = nil
configuration.httpShouldSetCookies = false
let session = Session(configuration: configuration, redirectHandler: Redirector.doNotFollow)

/// Fields a proxy does not pass on (hop by hop, or recomputed for the decoded body).
let hopByHop: Set<String> = ["connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding",
                             "host", "proxy-connection", "te", "upgrade"]

final class ProxyHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var head: HTTPRequestHead?
    private var body = Data()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(head):
            self.head = head
            body = Data()
        case var .body(buffer):
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            forward(head, body: body, context: context)
        }
    }

    private func forward(_ head: HTTPRequestHead, body: Data, context: ChannelHandlerContext) {
        var request = URLRequest(url: URL(string: origin + head.uri)!)
        request.httpMethod = head.method.rawValue
        for (name, value) in head.headers where !hopByHop.contains(name.lowercased()) {
            request.addValue(value, forHTTPHeaderField: name)
        }
        if !body.isEmpty { request.httpBody = body }
        let loop = context.eventLoop
        let bound = NIOLoopBound(context, eventLoop: loop)
        let keepAlive = head.isKeepAlive
        // Unserialized: any status, any body (empty ones too) is relayed as it came.
        session.request(request).response(queue: .global()) { response in
            if ProcessInfo.processInfo.environment["CACHE_TESTS_PROXY_LOG"] != nil {
                let fetch = response.metrics?.transactionMetrics.map { "\($0.resourceFetchType)" }.joined(separator: ",") ?? "-"
                FileHandle.standardError.write(Data("\(head.method) \(head.uri) \(fetch) \(response.error.map { "\($0)" } ?? "")\n".utf8))
            }
            var status = HTTPResponseStatus.badGateway
            var fields = HTTPHeaders()
            var payload = Data()
            if let http = response.response {
                status = HTTPResponseStatus(statusCode: http.statusCode)
                for case let (name as String, value as String) in http.allHeaderFields
                where !hopByHop.contains(name.lowercased()) {
                    fields.add(name: name, value: value)
                }
                payload = response.data ?? Data()
            }
            let headers = NIOHTTP1.HTTPHeaders(fields.map { ($0.name, $0.value) } + [("Content-Length", String(payload.count))])
            let bytes = payload
            loop.execute {
                let context = bound.value
                context.write(NIOAny(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                              promise: nil)
                context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
                context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: nil)
                if !keepAlive { context.close(promise: nil) }
            }
        }
    }
}

let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let channel = try ServerBootstrap(group: group)
    .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.pipeline.configureHTTPServerPipeline().flatMap { channel.pipeline.addHandler(ProxyHandler()) }
    }
    .bind(host: "127.0.0.1", port: port).wait()
print("cache-tests-proxy on 127.0.0.1:\(port) -> \(origin)")
try channel.closeFuture.wait()
