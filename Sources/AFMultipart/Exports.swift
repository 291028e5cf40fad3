/// AFMultipart: multipart/form-data bodies (RFC 7578), encoded in memory up to a threshold and
/// spilled to a temporary file above it.
@_exported import AFCore
