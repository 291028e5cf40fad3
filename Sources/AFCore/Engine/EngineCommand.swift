/// What another thread asks of the engine (`CurlEngine`) for a transfer.
enum EngineCommand {
    case start(Transfer)
    case cancel(Transfer)
    case pause(Transfer)
    case unpause(Transfer)
    case resumeFlow(Transfer)
    /// Run the closure at the first network change heard after the given generation.
    case awaitNetworkChange(since: UInt64, @Sendable () -> Void)
    case shutdown

    /// A start of a transfer for which curl may wait for a connection to multiplex on.
    var waitsToMultiplex: Bool {
        if case let .start(transfer) = self { transfer.standing.pipeWait } else { false }
    }

    /// The transfer of a start its caller may hand to curl itself (see `CurlEngine`): one that
    /// neither reads a file or stream nor writes a file. Their callbacks stay on the engine
    /// thread, where a file past `ulimit -f` fails instead of killing the process.
    var drivableTransfer: Transfer? {
        guard case let .start(transfer) = self else { return nil }
        // Each field read in place: a copy of the spec would retain each of its references.
        guard transfer.spec.download == nil, transfer.spec.uploadFile == nil, transfer.spec.uploadStream == nil,
              transfer.spec.uploadSegments == nil, transfer.spec.bodyStream == nil else { return nil }
        return transfer
    }
}
