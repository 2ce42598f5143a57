import Dispatch
import Foundation

/// Calls a handler (on a background queue) when SIGINT or SIGTERM arrives, instead of dying at once.
final class SignalWatcher {
    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "timeline.signals")

    init(_ signals: [Int32] = [SIGINT, SIGTERM], handler: @escaping @Sendable (Int32) -> Void) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit { sources.forEach { $0.cancel() } }
}
