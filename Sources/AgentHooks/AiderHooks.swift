import TimelineCore

/// aider: `--notifications-command` runs a command, with no payload, whenever aider waits for the user.
/// The session is aider's process (the command's parent), the project its working directory.
public enum AiderHooks {
    public static func report(cwd: String, parentProcess: Int32) -> HookReport {
        HookReport(session: "pid-\(parentProcess)", cwd: cwd, title: "Waiting for you: aider is ready for your next message",
                   status: .needsInput)
    }
}
