import Foundation

/// What a hook sends with, in one short string: a background sender started by one hook sends the
/// events of later hooks only when theirs is the same (not another queue, profile, endpoint or
/// credentials). Made of the environment's `AWS_*` and `TIMELINE_*` variables, the home and XDG
/// directories, and the size and change time of the files the settings come from (the config file, the
/// AWS config and credentials files): an edited file makes a new identity.
public enum HookSenderIdentity {
    /// The identity for `environment` and the settings `files` (paths; missing ones count as missing).
    public static func make(environment: [String: String], files: [String]) -> String {
        var hash = FNV1a()
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) where isRelevant(key) {
            hash.add(key)
            hash.add(value)
        }
        for path in files {
            hash.add(path)
            var info = stat()
            if stat(path, &info) == 0 {
                hash.add("\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ino)")
            } else {
                hash.add("missing")
            }
        }
        return String(hash.value, radix: 16)
    }

    /// Whether the variable `key` can change where or how a hook sends.
    static func isRelevant(_ key: String) -> Bool {
        key.hasPrefix("AWS_") || key.hasPrefix("TIMELINE_")
            || ["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy",
                "NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"].contains(key)
    }

    /// 64-bit FNV-1a over each string's bytes and a separator after it.
    private struct FNV1a {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func add(_ text: String) {
            for byte in text.utf8 { mix(byte) }
            mix(0x1F)
        }
        private mutating func mix(_ byte: UInt8) {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
    }
}
