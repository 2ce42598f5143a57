import Foundation

/// Where `reduce` takes the ids of new replies from, so that it stays pure: the randomness is drawn once,
/// when the state is created (by the runtime), and each id is a function of that seed and a counter
/// kept in the state. The ids are version 4 UUIDs, lowercased; within one seed they never repeat
/// (the mixing step is a bijection), and two seeds share an id with the odds of random UUIDs.
public struct ReplyIDs: Sendable, Equatable {
    private let seed: (UInt64, UInt64)
    private var issued: UInt64 = 0

    /// A random seed from the system's generator.
    public init() {
        var random = SystemRandomNumberGenerator()
        self.init(seed: (random.next(), random.next()))
    }

    /// A fixed seed: the same ids in the same order (tests).
    public init(seed: (UInt64, UInt64)) {
        self.seed = seed
    }

    public static func == (a: ReplyIDs, b: ReplyIDs) -> Bool {
        a.seed == b.seed && a.issued == b.issued
    }

    /// The next id.
    public mutating func next() -> String {
        issued += 1
        let step = issued &* 0x9E37_79B9_7F4A_7C15
        let high = Self.mix(seed.0 &+ step)
        let low = Self.mix(seed.1 &+ step)
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: high >> (56 - 8 * i))
            bytes[8 + i] = UInt8(truncatingIfNeeded: low >> (56 - 8 * i))
        }
        bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 4122 variant
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return uuid.uuidString.lowercased()
    }

    /// SplitMix64's finalizer: a bijection on 64-bit words that spreads every input bit.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
