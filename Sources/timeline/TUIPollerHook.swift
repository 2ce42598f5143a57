import TimelineUI

/// Where the lead plugs the Ingest poller into `timeline tui`: start it on the database, expose its
/// status mapped into `PollerStatusView` (called from the UI thread each tick: must be cheap and
/// thread-safe), and stop it on exit.
struct TUIPollerHook {
    let status: @Sendable () -> PollerStatusView
    let stop: () -> Void

    /// TODO(lead): start the Poller here (queue options, credentials) and map its status:
    /// connected/receiving/backingOff(until, reason)/stopped(reason), lastReceive, stored/rejected counts.
    static func start(databasePath: String) -> TUIPollerHook? { nil }

    /// Shown while no poller is wired in and --no-poll was not given.
    static let unavailableStatus = PollerStatusView(state: .stopped(reason: "poller not available in this build; use timeline poll"))
}
