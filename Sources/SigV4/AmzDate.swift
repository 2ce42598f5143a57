import Foundation

/// The two UTC date forms SigV4 uses.
public struct AmzDate: Sendable, Equatable {
    /// `20150830T123600Z`
    public var timestamp: String
    /// `20150830`
    public var day: String

    public init(_ date: Date) {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        day = String(format: "%04d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
        timestamp = day + String(format: "T%02d%02d%02dZ", Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
