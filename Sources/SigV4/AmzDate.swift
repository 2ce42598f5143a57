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
        // Digits written directly: this runs for every request, and String(format:) costs more than the rest.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        func put(_ value: Int, digits: Int) {
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8((rest / divisor) % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        put(Int(parts.tm_year) + 1900, digits: 4)
        put(Int(parts.tm_mon) + 1, digits: 2)
        put(Int(parts.tm_mday), digits: 2)
        day = String(decoding: bytes, as: UTF8.self)
        bytes.append(UInt8(ascii: "T"))
        put(Int(parts.tm_hour), digits: 2)
        put(Int(parts.tm_min), digits: 2)
        put(Int(parts.tm_sec), digits: 2)
        bytes.append(UInt8(ascii: "Z"))
        timestamp = String(decoding: bytes, as: UTF8.self)
    }
}
