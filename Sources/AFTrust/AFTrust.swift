/// AFTrust: ServerTrustManager and trust evaluators over OpenSSL (see issue "AFTrust").
@_exported import AFCore
