import Foundation

/// Edits `config.toml` as text, so the user's comments and layout survive: adds `[views.NAME]` at the end,
/// or replaces the `query` line of an existing one. The result is parsed before it replaces the file.
public enum ConfigWriter {
    /// Saves view `name` with `query` into the file at `path` (created 0600, its directory 0700, if missing).
    /// A symlinked file (dotfile managers) is edited where it points.
    public static func saveView(name: String, query: String, path linkPath: String) throws -> ConfigFile {
        let path = URL(fileURLWithPath: linkPath).resolvingSymlinksInPath().path
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }) else {
            throw ConfigFileError(path: path, line: nil, key: "views.\(name)", problem: "is not a valid view name",
                                  fix: "use letters, digits, - and _")
        }
        let existing = FileManager.default.fileExists(atPath: path)
            ? try String(contentsOfFile: path, encoding: .utf8) : ""
        let queryLine = "query = " + tomlString(query)
        var lines = existing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "[views.\(name)]" }
        if let header {
            var index = header + 1
            var replaced = false
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("[") {
                let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("query") && trimmed.dropFirst(5).trimmingCharacters(in: .whitespaces).hasPrefix("=") {
                    lines[index] = queryLine
                    replaced = true
                    break
                }
                index += 1
            }
            if !replaced { lines.insert(queryLine, at: header + 1) }
        } else {
            if let last = lines.last, last.isEmpty { lines.removeLast() }
            if !lines.isEmpty { lines.append("") }
            lines += ["[views.\(name)]", queryLine, ""]
        }
        let text = lines.joined(separator: "\n")
        let file = try ConfigFile.parse(text, path: path)  // never write a file that would not load
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let temporary = path + ".saving-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8),
                                             attributes: [.posixPermissions: existing.isEmpty ? 0o600 : permissions(of: path)]) else {
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "cannot be written",
                                  fix: "check that \(directory) is writable")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw ConfigFileError(path: path, line: nil, key: nil, problem: "cannot be replaced",
                                  fix: "check that \(directory) is writable")
        }
        return file
    }

    /// A TOML basic string: quotes, backslashes and control characters escaped.
    static func tomlString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private static func permissions(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? 0o600
    }
}
