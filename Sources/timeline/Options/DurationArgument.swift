import ArgumentParser
import TimelineCore

/// A duration flag value (`90s`, `10m`, `8h`, `2d`, `1h30m`): `DurationText`'s grammar, more than zero.
struct DurationArgument: ExpressibleByArgument, Equatable {
    let seconds: Int64

    init?(argument: String) {
        guard let seconds = DurationText.seconds(argument), seconds > 0 else { return nil }
        self.seconds = seconds
    }

    var defaultValueDescription: String {
        seconds % 3_600 == 0 ? "\(seconds / 3_600)h" : seconds % 60 == 0 ? "\(seconds / 60)m" : "\(seconds)s"
    }
}
