// What an Alamofire user gets with the import: on Linux, URLRequest, URLSessionConfiguration and
// HTTPURLResponse live in FoundationNetworking, so `import AFCore` brings it along.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
