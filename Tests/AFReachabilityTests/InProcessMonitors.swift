import Testing

/// The suites that start reachability monitors in this process. They run one test at a time:
/// some count the process's netlink sockets, which another suite's monitor would throw off.
@Suite(.serialized) enum InProcessMonitors {}
