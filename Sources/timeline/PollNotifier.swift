import Attention
import Foundation

/// `timeline poll --notify-command CMD`: a headless service notifies too (the command channel only).
final class PollNotifier {
    private let monitor: AttentionMonitor
    private let command: CommandChannel

    /// nil when there is no command or notifications are off.
    init?(databasePath: String, options: NotifyOptions) throws {
        guard let command = options.commandChannel(onFailure: { standardError(PollCommand.timestamped($0)) })
        else { return nil }
        self.command = command
        monitor = try AttentionMonitor(databasePath: databasePath, policy: options.policy,
                                       startedMicros: NotifyOptions.nowMicros)
    }

    /// Reads new events and runs the command for every notification due.
    func step(force: Bool = false) {
        monitor.stepNow(nowMicros: NotifyOptions.nowMicros, openTaskID: nil, withFleet: false, force: force)
        for n in monitor.take().notifications { command.deliver(n) }
    }

    /// At exit: what is still waiting for its burst window goes out now, and the commands finish.
    func finish() {
        step(force: true)
        command.waitUntilIdle()
    }
}
