import Foundation

/// The AWS shared config/credentials INI dialect: `[section]` headers, `key = value` lines,
/// `#`/`;` comment lines (and inline comments after whitespace), keys case-insensitive,
/// indented sub-settings of an empty-valued key (`sqs =` then `  endpoint_url = …`) kept as
/// `sqs.endpoint_url`.
public struct INIFile: Sendable, Equatable {
    /// Section name → (lower-cased key → value).
    public var sections: [String: [String: String]]

    public init(sections: [String: [String: String]] = [:]) {
        self.sections = sections
    }

    /// Parses `text`; unparseable lines are skipped.
    public init(parsing text: String) {
        var sections: [String: [String: String]] = [:]
        var current: String?
        var parentKey: String?  // the empty-valued key whose indented sub-settings follow
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            let indented = rawLine.first == " " || rawLine.first == "\t"
            if !indented { parentKey = nil }
            if line.hasPrefix("[") {
                guard let close = line.firstIndex(of: "]") else { continue }
                let name = line[line.index(after: line.startIndex)..<close]
                    .split(whereSeparator: \.isWhitespace).joined(separator: " ")
                current = name
                parentKey = nil
                if sections[name] == nil { sections[name] = [:] }
                continue
            }
            guard let section = current, let equals = line.firstIndex(where: { $0 == "=" || $0 == ":" }) else { continue }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            if name != "credential_process" { value = Self.removingInlineComment(value) }
            if indented, let parentKey {
                sections[section, default: [:]]["\(parentKey).\(name)"] = value
                continue
            }
            parentKey = value.isEmpty ? name : nil
            sections[section, default: [:]][name] = value
        }
        self.sections = sections
    }

    /// What reading a file gave.
    public enum Reading: Sendable, Equatable {
        case loaded(INIFile)
        case missing
        /// It exists but cannot be read (permission denied, a directory, …): the reason.
        case unreadable(String)
    }

    /// Reads and parses the file at `path`, telling a missing file from an unreadable one.
    public static func read(path: String) -> Reading {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(String(cString: strerror(errno)))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .unreadable("it is a directory") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .unreadable(String(cString: strerror(errno))) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        guard let data = try? handle.readToEnd() else { return .unreadable("read failed") }
        return .loaded(INIFile(parsing: String(decoding: data, as: UTF8.self)))
    }

    /// Reads and parses the file at `path`; nil when it does not exist or cannot be read.
    public static func load(path: String) -> INIFile? {
        if case .loaded(let file) = read(path: path) { return file }
        return nil
    }

    static func removingInlineComment(_ value: String) -> String {
        var previousWasSpace = false
        for index in value.indices {
            let character = value[index]
            if (character == "#" || character == ";") && previousWasSpace {
                return String(value[..<index]).trimmingCharacters(in: .whitespaces)
            }
            previousWasSpace = character == " " || character == "\t"
        }
        return value
    }
}
