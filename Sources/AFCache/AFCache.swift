/// AFCache: an RFC 9111 response cache in SQLite (see issue "AFCache").
@_exported import AFCore
