/// AFTrust: server trust evaluation over OpenSSL — `ServerTrustManager` and Alamofire's
/// evaluators, certificates and public keys for pinning.
@_exported import AFCore
