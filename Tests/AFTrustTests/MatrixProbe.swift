import AFTestSupport
import AFTrust
import Foundation
import Testing

/// Requests to the servers of the trust matrix.
enum MatrixProbe {
    /// Sends a POST with a body and an Authorization header to a matrix server through a new
    /// Session trusting "localhost" with `evaluator`; returns the error, after checking that a
    /// rejected connection carried no request.
    static func post(_ matrixCase: String, with evaluator: any ServerTrustEvaluating,
                     sourceLocation: SourceLocation = #_sourceLocation) async -> AFError? {
        let session = makeSession(serverTrustManager: ServerTrustManager(evaluators: ["localhost": evaluator]))
        defer { withExtendedLifetime(session) {} }
        return await post(matrixCase, on: session, sourceLocation: sourceLocation)
    }

    /// The same through `session`.
    static func post(_ matrixCase: String, on session: Session,
                     sourceLocation: SourceLocation = #_sourceLocation) async -> AFError? {
        let path = "/matrix-\(UUID().uuidString)"
        let response = await session.request(Server.tls(matrixCase, path), method: .post, parameters: ["secret": "s"],
                                             headers: [.authorization(bearerToken: "token-\(path)")])
            .serializingString().response
        if response.error != nil {
            #expect(!Server.tlsLog(matrixCase).contains(path), "a rejected connection carried the request",
                    sourceLocation: sourceLocation)
        }
        return response.error
    }
}
