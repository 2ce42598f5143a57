import ArgumentParser
import Testing
@testable import timeline

/// An error a command's `validate()` throws goes the way of a `run()` error (`FailureReport`) unless it is
/// ArgumentParser's own, which ArgumentParser prints (usage errors, exit 64).
@Suite struct ValidateFailureTests {
    struct Checked: ParsableCommand {
        @Option var fail: String = "none"
        func validate() throws {
            switch fail {
            case "command": throw CommandFailure("the file is not there", exitCode: ExitStatus.unusable)
            case "usage": throw ValidationError("--fail takes a word")
            case "exit": throw ExitCode(5)
            case "clean": throw CleanExit.message("bye")
            default: return
            }
        }
    }

    static func parseError(_ arguments: [String]) -> (any Error)? {
        do { _ = try Checked.parseAsRoot(arguments); return nil } catch { return error }
    }

    @Test func aCommandsOwnErrorFromValidateIsReportedLikeARunError() throws {
        let error = try #require(Self.parseError(["--fail", "command"]))
        let thrown = try #require(ValidateFailure.thrown(in: error))
        #expect(FailureReport(thrown) == FailureReport(message: "the file is not there", exitCode: ExitStatus.unusable))
    }

    @Test func argumentParsersOwnErrorsStayItsOwn() throws {
        for word in ["usage", "exit", "clean"] {
            let error = try #require(Self.parseError(["--fail", word]), "\(word)")
            #expect(ValidateFailure.thrown(in: error) == nil, "\(word)")
        }
        let usage = try #require(Self.parseError(["--no-such-option"]))
        #expect(ValidateFailure.thrown(in: usage) == nil)
        #expect(Self.parseError([]) == nil)
    }
}
