import AFCore
import Foundation

let url = CommandLine.arguments.dropFirst().last ?? "http://127.0.0.1:8080/get"
let response = await AF.request(url).serializingString().response
print(response.response?.statusCode as Any)
print(response.result)
print(response.metrics?.transactionMetrics.first?.networkProtocolName as Any)
