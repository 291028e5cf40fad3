import AFCore
import Foundation

// `af demo` runs the demo; anything else is one request (see Invocation.usage).
let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
if arguments == ["demo"] {
    status = await runDemo()
} else {
    do {
        status = await Transfer(invocation: try Invocation(arguments)).run()
    } catch let error as Invocation.UsageError {
        status = Output().usage(error)
    } catch is Invocation.HelpRequested {
        status = Output().help()
    } catch {
        status = Output().failure("\(error)", status: 2)
    }
}
// The session's engine thread may still be closing its connections: leave without running the
// exit-time handlers (OpenSSL's global cleanup among them) underneath it. Output goes out first.
fflush(nil)  // every stdio stream
_exit(status)
