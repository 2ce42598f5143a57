import Foundation
import ProcessLaunch
import Testing

@Suite("Process launch")
struct ProcessLaunchTests {
    /// The child's process group and session, from its /proc/self/stat (fields 5 and 6), and its pid.
    func groupAndSession(newSession: Bool) throws -> (pid: pid_t, group: Int32, session: Int32) {
        let pipe = try #require(ProcessLaunch.pipe())
        let plan = ProcessLaunch.Plan(executable: "/bin/sh", arguments: ["sh", "-c", "cat /proc/$$/stat"],
                                      environment: [:], stdin: .devNull, stdout: .descriptor(pipe.write), stderr: .devNull,
                                      newSession: newSession)
        var pid: pid_t = 0
        #expect(plan.spawn(&pid) == 0)
        close(pipe.write)
        let output = String(decoding: FileHandle(fileDescriptor: pipe.read, closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self)
        #expect(ProcessLaunch.waitForExit(pid, timeout: 10) == 0)
        // "pid (comm) state ppid pgrp session ...": the fields after the command's name.
        let fields = output[try #require(output.range(of: ") ")).upperBound...].split(separator: " ")
        return (pid, Int32(fields[2])!, Int32(fields[3])!)
    }

    @Test func aChildLeadsItsOwnGroupInTheCallersSession() throws {
        let child = try groupAndSession(newSession: false)
        #expect(child.group == child.pid && child.session == getsid(0))
    }

    @Test func aNewSessionIsLedByTheChild() throws {
        let child = try groupAndSession(newSession: true)
        #expect(child.group == child.pid && child.session == child.pid && child.session != getsid(0))
    }

    @Test func aChildStartsInTheDirectoryItIsGiven() throws {
        let pipe = try #require(ProcessLaunch.pipe())
        let plan = ProcessLaunch.Plan(executable: "/bin/sh", arguments: ["sh", "-c", "pwd -P"], environment: [:],
                                      stdin: .devNull, stdout: .descriptor(pipe.write), stderr: .devNull,
                                      workingDirectory: "/")
        var pid: pid_t = 0
        #expect(plan.spawn(&pid) == 0)
        close(pipe.write)
        let output = String(decoding: FileHandle(fileDescriptor: pipe.read, closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self)
        #expect(ProcessLaunch.waitForExit(pid, timeout: 10) == 0)
        #expect(FileManager.default.currentDirectoryPath != "/" && output == "/\n")
    }
}
