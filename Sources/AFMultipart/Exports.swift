/// AFMultipart: multipart/form-data bodies (RFC 7578), encoded in memory up to a threshold and
/// sent from their parts above it.
@_exported import AFCore
