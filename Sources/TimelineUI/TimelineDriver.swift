/// What the terminal loop drives: the state it draws, the inputs it sends, and the background work it starts,
/// polls and drains. `TimelineRuntime`'s `TimelineController` is the one implementation; the loop (`Terminal`)
/// needs nothing else from it, so it depends on this module alone.
public protocol TimelineDriver: AnyObject {
    /// The state the next frame draws.
    var state: AppState { get }
    /// How often `pollBackground` looks for other connections' writes (microseconds).
    var changeCheckInterval: Int64 { get set }
    /// `handler` runs (on any thread) each time a background result waits for `drain`.
    func setWakeHandler(_ handler: (@Sendable () -> Void)?)
    /// Starts the first loads.
    func start()
    /// Applies an input; false once the user asked to quit.
    @discardableResult func send(_ input: Input) -> Bool
    /// Applies the background results that arrived, and tells whether any answers the user.
    func drainResults() -> DrainedResults
    /// Looks for other connections' writes and the poller's status (throttled).
    func pollBackground(nowMicros: Int64)
    /// Looks for other connections' writes now (a commit hook or a file watcher saw one).
    func checkForChangesNow()
    /// True when this process committed to the store since the last call (`storeWritten`); the loop
    /// then checks the store at its pace.
    func takeStoreWrites() -> Bool
    /// Reloads for a commit of this process (`takeStoreWrites` said so), without comparing the change
    /// token first: the store surely changed. The loop calls it and drains its results next (`drainResults`):
    /// it does not wake the loop.
    func reloadAfterOwnCommit()
    /// A frame showing `state` was drawn (an open confirmation is then on screen: `y` may send it).
    func drawn()
    /// Waits, at most `timeout` seconds, for the user's queued actions (marks, pins, views) to be written.
    @discardableResult func finishActions(timeout: Double) -> Bool
}

/// What `drainResults` applied, which decides how soon the loop draws it.
public enum DrainedResults: Hashable, Sendable {
    /// Nothing arrived.
    case none
    /// Only incidental results (`Input.isIncidental`: the poller's status, counts, a store change whose
    /// reload is on its way, the rows already shown): drawn at the frame pace, and after a scheduled store
    /// check's frame rather than before it (`FramePacer`).
    case incidental
    /// Results of background work (a store change's rows, among others): drawn at the frame pace.
    case background
    /// At least one result answers the user's input (a key's load, a confirmed reply): drawn at once.
    case answers
}
