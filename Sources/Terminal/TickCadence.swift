/// How long the loop may sleep before its next tick (the tick moves relative times on). While something
/// animates: 100 ms. Otherwise one second, and each tick that changed nothing on screen doubles the wait,
/// up to `maximumMicros`: an idle screen with nothing second-by-second on it (no fresh relative time, no
/// countdown) wakes every few seconds instead of every second. Input, a background result or a tick that
/// changed the screen brings it back to one second.
struct TickCadence {
    static let animatingMicros: Int64 = 100_000
    static let baseMicros: Int64 = 1_000_000
    /// Also the longest a change only the loop looks for (the poller's state) waits to be shown.
    static let maximumMicros: Int64 = 4_000_000

    private(set) var idleMicros = TickCadence.baseMicros

    /// The wait from one tick to the next.
    func interval(animating: Bool) -> Int64 { animating ? Self.animatingMicros : idleMicros }

    /// A tick was drawn: `changedScreen` false when the frame came out the same as before.
    mutating func ticked(changedScreen: Bool) {
        idleMicros = changedScreen ? Self.baseMicros : min(Self.maximumMicros, idleMicros * 2)
    }

    /// Input or a background result arrived: the next ticks are one second apart again.
    mutating func activity() { idleMicros = Self.baseMicros }
}
