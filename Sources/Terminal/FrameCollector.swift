import CGlibcGNU
import Foundation

/// Hands a frame to the terminal in one write. ncurses flushes its output after every cursor movement, so
/// `doupdate` reaches the terminal as one small write(2) per jump (dozens a frame): each wakes a terminal
/// multiplexer to parse a few bytes, and on a busy machine a frame arrives spread over many scheduler
/// slices. While `collect` runs, standard output points at a file in memory (`memfd_create`; an unlinked
/// temporary file where the kernel has none); the frame is then written to the terminal at once. The file's
/// space is reserved up front and never given back, so memory or a disk that fills up later cannot cut a frame
/// short (a larger frame than that goes to the terminal as before). In memory, frames never reach a disk.
final class FrameCollector {
    /// Bytes reserved for one frame: far more than a full repaint of a very large terminal takes.
    static let capacity = 4 << 20

    private let buffer: Int32
    private let terminal: Int32
    /// The terminal's own descriptor, for putting it back from a crash handler (dup2 is async-signal-safe).
    nonisolated(unsafe) private static var savedTerminal: Int32 = -1

    /// Nil when no file or descriptor is available (ncurses then writes to the terminal itself).
    init?() {
        guard let fd = Self.frameFile() else { return nil }
        guard posix_fallocate(fd, 0, off_t(Self.capacity)) == 0 else { close(fd); return nil }
        let saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        guard saved >= 0 else { close(fd); return nil }
        buffer = fd
        terminal = saved
        Self.savedTerminal = saved
    }

    /// A file for frames, closed on exec: in memory, else unlinked in the temporary directory.
    static func frameFile() -> Int32? {
        let memory = tl_memory_file("timeline-frame")
        if memory >= 0 { return memory }
        var template = Array((NSTemporaryDirectory() + "/timeline-frame-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    deinit {
        Self.savedTerminal = -1
        close(buffer)
        close(terminal)
    }

    /// Points standard output back at the terminal (for a crash handler restoring the terminal mid-frame).
    static func release() {
        if savedTerminal >= 0 { _ = dup2(savedTerminal, STDOUT_FILENO) }
    }

    /// Runs `body` (ncurses' `doupdate`) with standard output collected, then writes what it wrote at once.
    func collect(_ body: () -> Void) {
        guard lseek(buffer, 0, SEEK_SET) == 0, dup2(buffer, STDOUT_FILENO) >= 0 else { return body() }
        body()
        _ = dup2(terminal, STDOUT_FILENO)
        let length = Int(lseek(buffer, 0, SEEK_CUR))  // where the frame's last write ended
        guard length > 0 else { return }
        var bytes = [UInt8](repeating: 0, count: length)
        let read = bytes.withUnsafeMutableBytes { pread(buffer, $0.baseAddress, length, 0) }
        if read > 0 { TerminalSideOutput.write(Array(bytes.prefix(read))) }
    }
}
