import CMalloc

/// Process-wide memory settings, applied first thing in `main` (before any thread starts).
public enum ProcessMemory {
    /// glibc gives each thread that allocates its own malloc arena and keeps what is freed there; the
    /// viewer's lanes free and allocate page-cache-sized blocks in turn, so with one arena per lane the
    /// TUI held twice its live heap (13 MiB anonymous memory with 1,000,000 events instead of 7). The main
    /// thread keeps its arena; every other thread shares one (glibc's per-thread cache still serves small
    /// blocks without a lock; drain CPU was unchanged).
    public static let mallocArenas: Int32 = 2

    /// Applies the settings above.
    public static func configure() {
        _ = tl_malloc_limit_arenas(mallocArenas)
    }
}
