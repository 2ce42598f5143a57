import Foundation
import TOMLKit
import TimelineCore

/// `config.toml`: the user's settings and named views, validated when loaded.
///
/// A missing file is an empty configuration. A file that is not TOML, has an unknown key, or a value of
/// the wrong kind is a `ConfigFileError` naming the line, the key and the fix: never silently ignored.
public struct ConfigFile: Sendable, Equatable {
    /// Where the file is (or would be).
    public var path: String
    /// False when there is no file at `path`.
    public var exists: Bool
    /// Top-level settings by key (`ConfigKey.all`); lists hold one element per entry.
    public var values: [String: [String]]
    /// Named views: name → query text, in name order.
    public var views: [(name: String, query: String)]
    /// What the user should know about the file although it was read (e.g. others can write it).
    public var warnings: [String] = []

    public static func == (a: ConfigFile, b: ConfigFile) -> Bool {
        a.path == b.path && a.exists == b.exists && a.values == b.values
            && a.views.map(\.name) == b.views.map(\.name) && a.views.map(\.query) == b.views.map(\.query)
            && a.warnings == b.warnings
    }

    /// An empty configuration at `path` (no file).
    public init(path: String) {
        self.path = path
        exists = false
        values = [:]
        views = []
    }

    /// The file's path: `$TIMELINE_CONFIG`, else `$XDG_CONFIG_HOME/timeline/config.toml` (an absolute
    /// XDG_CONFIG_HOME), else `~/.config/timeline/config.toml`.
    public static func defaultPath(environment: [String: String]) -> String {
        if let given = environment["TIMELINE_CONFIG"], !given.isEmpty { return given }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/timeline/config.toml" }
        return homeDirectory(environment) + "/.config/timeline/config.toml"
    }

    /// Reads and validates the file at `path`; an empty configuration when it does not exist. Only a
    /// regular file (a link to one is fine) of at most `maxBytes` is read; one that others can write is
    /// read with a warning in `warnings`, as ssh warns of such files.
    public static func load(path: String) throws(ConfigFileError) -> ConfigFile {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let failure = errno
            if failure == ENOENT, lstat(path, &info) != 0 { return ConfigFile(path: path) }
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "cannot be read (\(String(cString: strerror(failure))))",
                                  fix: "check the file and its folder (a link must point to a file)")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "is not a regular file",
                                  fix: "point TIMELINE_CONFIG at a file, or remove what stands at that path")
        }
        guard info.st_size <= maxBytes else {
            throw ConfigFileError(path: path, line: nil, key: nil,
                                  problem: "is \(info.st_size) bytes, more than the \(maxBytes)-byte limit of a config file",
                                  fix: "keep settings and views only")
        }
        guard let handle = FileHandle(forReadingAtPath: path),
              let data = try? handle.read(upToCount: maxBytes + 1) ?? Data() else {
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "cannot be read",
                                  fix: "check the file's permissions (chmod 600 \(path))")
        }
        try? handle.close()
        guard data.count <= maxBytes else {
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "grew past the \(maxBytes)-byte limit while read",
                                  fix: "keep settings and views only")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "is not UTF-8 text",
                                  fix: "save the file as UTF-8")
        }
        var file = try parse(text, path: path)
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            file.warnings.append("\(DisplayText.escaped(path)) can be written by other users, who could change where "
                + "timeline sends replies: chmod go-w \(DisplayText.escaped(path))")
        }
        return file
    }

    /// The largest config file read (settings and views fit in far less).
    public static let maxBytes = 1_048_576

    /// Parses and validates TOML `text` (read from `path`, named in errors).
    public static func parse(_ text: String, path: String) throws(ConfigFileError) -> ConfigFile {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigFileError(path: path, line: error.source.begin.line, key: nil,
                                  problem: "not valid TOML: " + DisplayText.sanitize(error.description),
                                  fix: "write settings as key = \"value\" lines (see the commented example in docs/configuration.md)")
        } catch {
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "not valid TOML",
                                  fix: "write settings as key = \"value\" lines (see the commented example in docs/configuration.md)")
        }
        let lines = KeyLines(text)
        var file = ConfigFile(path: path)
        file.exists = true
        for name in table.keys.sorted() {
            guard let value = table[name] else { continue }
            if name == "views" {
                file.views = try views(value, path: path, lines: lines)
                continue
            }
            let line = lines.line(of: name, inTable: nil)
            guard let key = ConfigKey.named(name) else {
                let known = (ConfigKey.all.map(\.name) + ["views"]).joined(separator: ", ")
                throw ConfigFileError(path: path, line: line, key: name, problem: "unknown setting",
                                      fix: "remove it or correct the spelling; known settings: \(known)")
            }
            let strings: [String]
            switch (key.kind, value.type) {
            case (.string, .string):
                strings = [value.string!]
            case (.bool, .bool):
                strings = [value.bool! ? "true" : "false"]
            case (.stringList, .array):
                var items: [String] = []
                for element in value.array! {
                    guard let s = element.string else {
                        throw ConfigFileError(path: path, line: line, key: name, problem: "holds a \(element.type), not a string",
                                              fix: "use \(key.expects)")
                    }
                    items.append(s)
                }
                strings = items
            default:
                throw ConfigFileError(path: path, line: line, key: name, problem: "has a value of type \(value.type)",
                                      fix: "use \(key.expects)")
            }
            for s in strings {
                if let problem = key.check(s) {
                    throw ConfigFileError(path: path, line: line, key: name,
                                          problem: "\"\(DisplayText.sanitize(s))\" \(problem)", fix: "use \(key.expects)")
                }
            }
            file.values[name] = strings
        }
        if file.values["queue_url"] != nil, file.values["queue_urls"] != nil {
            throw ConfigFileError(path: path, line: lines.line(of: "queue_urls", inTable: nil), key: "queue_urls",
                                  problem: "set together with queue_url",
                                  fix: "keep one: queue_url = \"…\" for one queue, or queue_urls = [\"…\", \"…\"] for several")
        }
        return file
    }

    /// `[views.NAME]` tables, each with a `query` string.
    private static func views(_ value: TOMLValueConvertible, path: String, lines: KeyLines) throws(ConfigFileError)
        -> [(name: String, query: String)] {
        guard let table = value.table else {
            throw ConfigFileError(path: path, line: lines.line(of: "views", inTable: nil), key: "views",
                                  problem: "is a \(value.type), not a table of views",
                                  fix: "write each view as a table: [views.NAME] then query = \"status:error\"")
        }
        var views: [(name: String, query: String)] = []
        for name in table.keys.sorted() {
            let line = lines.line(ofTable: "views." + name)
            guard let view = table[name]?.table else {
                throw ConfigFileError(path: path, line: lines.line(of: name, inTable: "views") ?? line, key: "views.\(name)",
                                      problem: "is not a table", fix: "write [views.\(name)] then query = \"…\" on the next line")
            }
            for key in view.keys where key != "query" {
                throw ConfigFileError(path: path, line: lines.line(of: key, inTable: "views." + name) ?? line,
                                      key: "views.\(name).\(key)", problem: "unknown view setting",
                                      fix: "a view has only query = \"…\"")
            }
            guard let query = view["query"]?.string else {
                throw ConfigFileError(path: path, line: lines.line(of: "query", inTable: "views." + name) ?? line,
                                      key: "views.\(name).query", problem: view["query"] == nil ? "is missing" : "is not a string",
                                      fix: "add query = \"status:error category:deploy\" (the search syntax) under [views.\(name)]")
            }
            let problems = TimelineQuery.parse(query).problems
            if let first = problems.first {
                throw ConfigFileError(path: path, line: lines.line(of: "query", inTable: "views." + name) ?? line,
                                      key: "views.\(name).query", problem: DisplayText.sanitize(first), fix: "correct the query")
            }
            views.append((name, query))
        }
        return views
    }

    /// The first value of a single-valued key.
    public func string(_ key: String) -> String? { values[key]?.first }

    /// The query of the view named `name`.
    public func view(named name: String) -> String? { views.first { $0.name == name }?.query }
}

/// `HOME`, else the account's home directory.
func homeDirectory(_ environment: [String: String]) -> String {
    environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
}

/// Line numbers of keys and table headers in TOML text (TOMLKit reports positions only for syntax errors).
struct KeyLines {
    /// (line number, table path or nil for the root, key).
    private var keys: [(line: Int, table: String?, key: String)] = []
    private var tables: [String: Int] = [:]

    init(_ text: String) {
        var table: String?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                let name = line.trimmingCharacters(in: CharacterSet(charactersIn: "[] ")).split(separator: "#").first
                    .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[] ")) } ?? ""
                table = name.replacingOccurrences(of: "\"", with: "")
                tables[table!] = index + 1
            } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\"", with: "")
                keys.append((index + 1, table, key))
            }
        }
    }

    func line(of key: String, inTable table: String?) -> Int? {
        keys.first { $0.table == table && $0.key == key }?.line
            ?? keys.first { $0.table == nil && $0.key.hasPrefix(key + ".") }?.line
    }

    func line(ofTable name: String) -> Int? { tables[name] }
}
