/// AFReachability: rtnetlink reachability and retry-when-back-online (see issue "AFReachability").
@_exported import AFCore
