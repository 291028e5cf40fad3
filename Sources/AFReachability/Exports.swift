/// AFReachability: network reachability from rtnetlink, and retrying when the network returns.
@_exported import AFCore
