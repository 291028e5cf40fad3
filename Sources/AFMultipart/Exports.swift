/// AFMultipart: multipart/form-data bodies (RFC 7578), encoded in memory up to a threshold and
/// from a file, or from the parts' own files, above it.
@_exported import AFCore
