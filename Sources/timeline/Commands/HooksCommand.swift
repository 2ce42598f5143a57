import AgentHooks
import ArgumentParser
import Foundation
import TimelineCore

/// `timeline hooks install|uninstall|status|flush`: wires the agents' own hooks to `timeline hook AGENT`.
struct HooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hooks",
        abstract: "Install, remove and inspect the hooks that report your agents to the timeline.",
        subcommands: [HooksInstallCommand.self, HooksUninstallCommand.self, HooksStatusCommand.self, HooksFlushCommand.self]
    )
}

/// Options that pick the agent and its settings file.
struct HookTargetOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The agent: \(HookAgent.allCases.map(\.rawValue).joined(separator: ", ")).",
                                 valueName: "agent"))
    var agent: String
    @Option(help: "Which settings file: user, project or local (Claude Code; project for Cursor).")
    var scope: String?

    func resolved() throws -> (HookAgent, HookScope) {
        guard let agent = HookAgent(rawValue: agent) else {
            throw CommandFailure("unknown agent \(DisplayText.sanitize(agent)): one of \(HookAgent.allCases.map(\.rawValue).joined(separator: ", "))",
                                 exitCode: 2)
        }
        let scope: HookScope
        if let text = self.scope {
            guard let value = HookScope(rawValue: text) else {
                throw CommandFailure("--scope must be user, project or local", exitCode: 2)
            }
            scope = value
        } else {
            scope = agent == .cursor ? .project : .user
        }
        return (agent, scope)
    }

    func locations(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [HookInstallLocation] {
        let (agent, scope) = try resolved()
        do {
            return try HookInstallLocation.all(agent: agent, scope: scope, home: HooksPaths.home(environment),
                                               project: FileManager.default.currentDirectoryPath,
                                               environment: environment)
        } catch {
            throw CommandFailure(error.description, exitCode: 2)
        }
    }
}

struct HooksInstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Add timeline's hooks to an agent's settings (keeping everything else as it is).")

    @OptionGroup var target: HookTargetOptions
    @Flag(name: .customLong("dry-run"), help: "Show the file as it would be, change nothing.") var dryRun = false
    @Flag(name: .customLong("include-prompts"), help: "Also publish the prompts you type.") var includePrompts = false
    @Option(help: ArgumentHelp("How long agents' prompts wait for an answer from the timeline (default 2m).",
                               valueName: "duration"))
    var wait: DurationArgument?

    func run() throws {
        try reportingFailures {
            for location in try target.locations() {
                var command = [HooksPaths.executable(), "hook", location.agent.rawValue]
                if includePrompts { command.append("--include-prompts") }
                if let wait { command += ["--wait", "\(wait.seconds)s"] }
                let installer = HookInstaller(location: location, command: command,
                                              permissionWait: wait?.seconds ?? PermissionPrompt.defaultWaitSeconds)
                let change = try mapped { try installer.install() }
                if dryRun {
                    let after = change.after ?? ""
                    print("# \(location.path)")
                    print(after, terminator: after.hasSuffix("\n") ? "" : "\n")
                    continue
                }
                guard change.changed else {
                    print("\(location.agent.displayName): already installed in \(location.path)")
                    continue
                }
                let backup = try mapped { try installer.write(change) }
                print("\(location.agent.displayName): installed in \(location.path)")
                if let backup { print("backup of the previous file: \(backup)") }
                for note in location.notes { print(note) }
            }
        }
    }
}

struct HooksUninstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall", abstract: "Remove timeline's hooks from an agent's settings (nothing else).")

    @OptionGroup var target: HookTargetOptions
    @Flag(name: .customLong("dry-run"), help: "Show the file as it would be, change nothing.") var dryRun = false

    func run() throws {
        try reportingFailures {
            for location in try target.locations() {
                let installer = HookInstaller(location: location, command: [HooksPaths.executable(), "hook", location.agent.rawValue])
                let change = try mapped { try installer.uninstall() }
                if dryRun {
                    let after = change.after ?? ""
                    print("# \(location.path)\(change.after == nil && change.before != nil ? " (removed)" : "")")
                    print(after, terminator: after.hasSuffix("\n") || after.isEmpty ? "" : "\n")
                    continue
                }
                guard change.changed else {
                    print("\(location.agent.displayName): nothing of timeline's in \(location.path)")
                    continue
                }
                _ = try mapped { try installer.write(change) }
                print("\(location.agent.displayName): removed timeline's hooks from \(location.path)")
            }
        }
    }
}

struct HooksStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Per agent: what is installed, where events go, how many wait in the spool.")

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let home = HooksPaths.home(environment)
        let project = FileManager.default.currentDirectoryPath
        for agent in HookAgent.allCases {
            for scope in HookScope.allCases {
                let locations = (try? HookInstallLocation.all(
                    agent: agent, scope: scope, home: home, project: project, environment: environment)) ?? []
                for location in locations where FileManager.default.fileExists(atPath: location.path) {
                    let installed = (try? HookInstaller(location: location, command: []).installedCommands()) ?? []
                    let what = installed.isEmpty ? "not installed" : "installed (\(installed.count) hook entries)"
                    print("\(agent.displayName) [\(scope.rawValue)] \(DisplayText.sanitize(location.path)): \(what)")
                }
            }
        }
        let queue = (try? QueueOptions.configuration(flags: .init(), environment: environment)).map {
            "\(QueueText.describe($0.queue.value)) (from \($0.queue.source))"
        } ?? "no queue configured (set TIMELINE_QUEUE_URL or queue_url in the config file)"
        print("publishes to: \(queue)")
        let state = HookSpool.stateDirectory(environment: environment)
        let spool = HookSpool(stateDirectory: state)
        let waiting = spool.count
        print("spool: \(waiting == 1 ? "1 event" : "\(waiting) events") waiting in \(DisplayText.sanitize(state.path))/spool; background sender "
              + (spool.runningSender().map { "running" + ($0.pid.map { " (pid \($0))" } ?? "") } ?? "not running"))
        if let last = HookLog.last(state: state) { print("last problem: \(last)") }
    }
}

struct HooksFlushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flush", abstract: "Send the events waiting in the hooks' spool, oldest first.")

    @Option(help: ArgumentHelp("Give up after this many seconds.", valueName: "seconds")) var timeout: Double = 60
    @Flag(help: """
        Send as the spool's one background sender, printing nothing, trying again after a pause when a send \
        fails: exit at once when another runs (hooks start one this way).
        """)
    var background = false
    @Option(help: ArgumentHelp(
        "With --background: once the spool is empty, wait this long for more events before exiting.", valueName: "seconds"))
    var idle: Double = 0
    @Flag(help: """
        Also send the events hooks spooled with other settings (another queue, profile, endpoint or \
        credentials), with this shell's.
        """)
    var anySettings = false

    func run() throws {
        let environment = SenderEnvironment.current()  // the hooks' settings are computed from it too
        let state = HookSpool.stateDirectory(environment: environment)
        let spool = HookSpool(stateDirectory: state)
        let settings = HookDelivery.identity(environment: environment)
        let publisher = HookDelivery.publisher(spool: spool, environment: environment,
                                               settings: anySettings && !background ? nil : settings)
        if background {
            // Each failure is noted for `hooks status` as it happens (the sender may try again for minutes).
            _ = publisher.deliverAlone(budget: timeout, idle: idle, retry: HookDelivery.backgroundRetry) { outcome in
                if let failure = outcome.failure { HookLog.record(failure, state: state) }
                if outcome.failure == nil, outcome.waiting == 0 { HookLog.clear(state: state) }
            }
            HookCommand.end()  // a send that ran out of time may still be inside curl on another thread
        }
        let outcome = publisher.deliver(budget: timeout, waitingForBusy: true)
        let others = spool.count - spool.count(for: publisher.settings)
        print("sent \(outcome.sent), \(outcome.waiting) waiting"
              + (outcome.busy > 0 ? " (\(outcome.busy) still being sent by another process)" : "")
              + (others > 0 ? "; \(others) spooled with other settings (--any-settings sends them with these)" : ""))
        if outcome.waiting == 0 { HookLog.clear(state: state) }
        if let failure = outcome.failure { throw CommandFailure(failure) }
        if outcome.timedOut { throw CommandFailure("gave up after \(timeout) s") }
    }
}

/// Paths the hooks commands need from the process.
enum HooksPaths {
    static func home(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    /// The absolute path of the running binary (what the agents' settings run).
    static func executable() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }
}

/// Installer errors as command failures.
func mapped<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as HookInstallError { throw CommandFailure(error.description) }
}
