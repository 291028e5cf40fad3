import Foundation

/// An upload stream whose blocked `read` can be ended from another thread. AF's upload pump
/// reads a stream on a queue of its own and closes it there, behind any read in progress; a
/// stream whose reads wait for data (a body produced by a task) adopts this so that a request
/// ending while a read waits does not keep that read, and what feeds it, waiting forever.
package protocol InterruptibleInputStream: AnyObject {
    /// Makes a read in progress, and every later one, return at once. Called from any thread.
    func interruptReads()
}
