import Foundation

/// Runs a Python snippet (`python3` on PATH, or `$TIMELINE_PYTHON`) and returns its stdout.
public enum PythonRunner {
    public static func run(_ script: String, arguments: [String] = [], stdin: Data? = nil) throws -> Data {
        let python = ProcessInfo.processInfo.environment["TIMELINE_PYTHON"] ?? "python3"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, "-c", script] + arguments
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestSetupError("\(python) failed (\(process.terminationStatus)): \(String(decoding: err, as: UTF8.self))")
        }
        return out
    }
}
