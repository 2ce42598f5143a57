import Foundation
import TimelineStore

/// Reads a file descriptor as lines of raw bytes split on `\n` (a trailing `\r` is kept: JSON allows it).
///
/// Bytes need not be UTF-8. A line longer than `maxLineBytes` yields its first `maxLineBytes` bytes with
/// `fullLength` telling the real size, so one giant line cannot exhaust memory. A UTF-8 byte-order mark at
/// the very start of the input is skipped (editors on Windows write one; JSON forbids it inside a value).
struct LineReader {
    struct Line {
        var number: Int
        var bytes: [UInt8]
        var fullLength: Int
        var isTruncated: Bool { fullLength > bytes.count }
    }

    let fd: Int32
    /// May grow between lines (a backup's lines hold base64 of messages up to the default limit).
    var maxLineBytes: Int
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)
    private var start = 0
    private var end = 0
    private var atEOF = false
    private var lineNumber = 0
    /// Bytes consumed so far (for progress).
    private(set) var bytesRead: Int64 = 0

    init(fd: Int32, maxLineBytes: Int = 16 << 20) {
        self.fd = fd
        self.maxLineBytes = maxLineBytes
    }

    /// The next line, nil at end of input. Throws on a read error.
    mutating func next() throws -> Line? {
        var line: [UInt8] = []
        var fullLength = 0
        while true {
            if start < end {
                let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n"))
                let stop = newline ?? end
                let room = maxLineBytes - line.count
                if room > 0 { line.append(contentsOf: buffer[start..<min(stop, start + room)]) }
                fullLength += stop - start
                if let newline {
                    start = newline + 1
                    lineNumber += 1
                    return Self.withoutByteOrderMark(Line(number: lineNumber, bytes: line, fullLength: fullLength))
                }
                start = end
            }
            if atEOF {
                if fullLength == 0 { return nil }
                lineNumber += 1
                return Self.withoutByteOrderMark(Line(number: lineNumber, bytes: line, fullLength: fullLength))
            }
            try fill()
        }
    }

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The first line without a leading UTF-8 byte-order mark; other lines unchanged.
    private static func withoutByteOrderMark(_ line: Line) -> Line {
        guard line.number == 1, line.bytes.starts(with: byteOrderMark) else { return line }
        return Line(number: 1, bytes: Array(line.bytes.dropFirst(3)), fullLength: line.fullLength - 3)
    }

    private mutating func fill() throws {
        start = 0
        end = 0
        let count = buffer.withUnsafeMutableBytes { raw -> Int in
            while true {
                let n = read(fd, raw.baseAddress, raw.count)
                if n < 0 && errno == EINTR { continue }
                return n
            }
        }
        if count < 0 { throw ImportError.read(String(cString: strerror(errno))) }
        if count == 0 { atEOF = true }
        end = count
        bytesRead += Int64(count)
    }
}

/// Failures of `timeline import` that stop it (rejected lines never do).
enum ImportError: Error, Sendable, CustomStringConvertible {
    case open(String, String)
    case read(String)
    /// A backup of a format version this build does not read.
    case backupVersion(String)
    /// A backup line that is not a record (line number, reason).
    case backupLine(Int, String)

    var description: String {
        switch self {
        case .open(let path, let reason): "cannot open \(path): \(reason)"
        case .read(let reason): "read error: \(reason)"
        case .backupVersion(let version):
            "this is a timeline backup of format version \(version); this timeline reads version \(BackupLine.version)"
        case .backupLine(let number, let reason):
            "line \(number): not a backup record: \(reason) (the records before it are stored; importing again is safe)"
        }
    }
}
