import AFCore
import Foundation

// `af demo` runs the demo; anything else is one request (see Command).
let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
if arguments == ["demo"] {
    status = await runDemo()
} else {
    do {
        let command = try Command.parse(Command.normalized(arguments))
        status = await Transfer(invocation: try command.invocation()).run()
    } catch let error as Invocation.UsageError {
        status = Output().usage(error)
    } catch {
        // Help, --version and completion scripts are clean exits; the rest are usage errors.
        if Command.exitCode(for: error) == .success {
            FileHandle.standardOutput.write(Data((Command.fullMessage(for: error) + "\n").utf8))
            status = 0
        } else {
            status = Output().usage(Invocation.UsageError(description: Command.message(for: error)))
        }
    }
}
// The session's engine thread may still be closing its connections: leave without running the
// exit-time handlers (OpenSSL's global cleanup among them) underneath it. Output goes out first.
fflush(nil)  // every stdio stream
_exit(status)
