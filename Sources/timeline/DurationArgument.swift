import ArgumentParser

/// A duration flag value: a number with a unit, `90s`, `10m`, `8h`, `2d`.
struct DurationArgument: ExpressibleByArgument, Equatable {
    let seconds: Int64

    init(seconds: Int64) { self.seconds = seconds }

    init?(argument: String) {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        guard let unit = argument.last.flatMap({ units[$0] }), let n = Int64(argument.dropLast()), n > 0,
              n <= Int64.max / 1_000_000 / unit else { return nil }
        seconds = n * unit
    }

    var defaultValueDescription: String {
        seconds % 3_600 == 0 ? "\(seconds / 3_600)h" : seconds % 60 == 0 ? "\(seconds / 60)m" : "\(seconds)s"
    }
}
