import AFCore
import AFReachability
import Foundation

// Sources/AFCore/AFCore.docc/Daemons.md, after its first block (Examples/PollingDaemon/check.sh
// compares that one with the daemon it builds and runs).

func daemonsRetryAndKeepAliveExample() {
    let session = Session(interceptor: Interceptor(retriers: [RetryPolicy(), OfflineRetrier()]),
                          tcpKeepAlive: TCPKeepAlive(idle: 60, interval: 15, count: 4))
    _ = session
}

func daemonsDeadlineExample(session: Session, url: URL) async {
    let changes = await session.request(url).validate().deadline(after: 60).serializingData().result
    _ = changes
}

func daemonsUnixSocketExample() {
    AF.request("http+unix://%2Fvar%2Frun%2Fdocker.sock/v1.41/info").responseData { print($0.result) }

    let configuration = URLSessionConfiguration.af.default
    configuration.af.unixSocketPath = "/run/my-service.sock"   // every http(s) request of the Session
    _ = configuration
}
