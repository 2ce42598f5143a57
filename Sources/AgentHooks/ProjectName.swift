import Foundation

/// The project an agent works on, as the event's category: the name of the git work tree holding `cwd`
/// (the directory with `.git`, a directory or a worktree's file), else the last component of `cwd`.
public enum ProjectName {
    public static func of(cwd: String?) -> String? {
        guard let cwd, cwd.hasPrefix("/") else { return nil }
        var url = URL(fileURLWithPath: cwd).standardizedFileURL
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent(".git").path) {
                return url.lastPathComponent
            }
            url.deleteLastPathComponent()
        }
        let last = URL(fileURLWithPath: cwd).standardizedFileURL.lastPathComponent
        return last.isEmpty || last == "/" ? nil : last
    }
}
