import ArgumentParser
import Ingest

/// The polling options of `tui`, `poll` and `drain`, validated in one place. `Defaults` gives the
/// command's own default concurrency (drain polls harder: it wants the backlog fast).
struct PollingOptions<Defaults: PollingDefaults>: ParsableArguments {
    /// The accepted `--concurrency` values.
    static var concurrencyRange: ClosedRange<Int> { 1...32 }

    @Option(help: "Long polls in flight at once per queue (1 to 32).")
    var concurrency = Defaults.concurrency

    @Flag(help: "Never delete messages: they come back after the visibility timeout and duplicates are ignored (for a queue shared by several viewers).")
    var peek = false

    /// How to poll: these options plus what the command sets itself.
    func pollerConfiguration(
        queueURLs: [String], waitSeconds: Int = 20, stopWhenEmpty: Bool = false, giveUpAfter: Double? = nil,
        storeGiveUpAfter: Double? = nil, backlogGatherTime: Double = PollerConfiguration.viewerBacklogGatherTime
    ) -> PollerConfiguration {
        PollerConfiguration(queueURLs: queueURLs, concurrency: concurrency, waitSeconds: waitSeconds, peek: peek,
                            stopWhenEmpty: stopWhenEmpty, giveUpAfter: giveUpAfter, storeGiveUpAfter: storeGiveUpAfter,
                            backlogGatherTime: backlogGatherTime)
    }

    func validate() throws {
        guard Self.concurrencyRange.contains(concurrency) else {
            throw ValidationError("--concurrency must be \(Self.concurrencyRange.lowerBound) to \(Self.concurrencyRange.upperBound)")
        }
    }
}

/// A command's defaults for `PollingOptions`.
protocol PollingDefaults {
    static var concurrency: Int { get }
}

/// `tui` and `poll`: two long polls per queue.
enum ViewerPolling: PollingDefaults { static var concurrency: Int { 2 } }

/// `drain`: four long polls per queue.
enum DrainPolling: PollingDefaults { static var concurrency: Int { 4 } }
