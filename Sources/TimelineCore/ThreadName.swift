import CGlibcGNU

/// Names for timeline's own threads, as ps, top and perf show them (Foundation's `Thread.name` does not
/// reach the kernel on Linux). Each thread names itself first thing.
public enum ThreadName {
    /// Names the calling thread (the kernel keeps 15 bytes: a longer name is cut).
    public static func nameThisThread(_ name: String) {
        _ = tl_name_this_thread(name)
    }

    /// The calling thread's name as the kernel has it.
    public static func ofThisThread() -> String {
        var buffer = [CChar](repeating: 0, count: 16)
        guard tl_this_thread_name(&buffer, buffer.count) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
