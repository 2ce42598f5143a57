import Foundation
import Testing
import TestSupport
import TimelineConfig

/// A config file that could hang, exhaust or deceive a command is refused or flagged, never trusted blindly.
@Suite struct ConfigFileSafetyTests {
    @Test func aFileLargerThanTheLimitIsRefusedWithoutReadingIt() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("config.toml", "# views\n" + String(repeating: "#", count: ConfigFile.maxBytes))
        #expect {
            try ConfigFile.load(path: path)
        } throws: { error in
            (error as? ConfigFileError)?.problem.contains("more than the 1048576-byte limit") == true
        }
    }

    @Test func aFIFOIsRefusedInsteadOfHangingTheCommand() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("config.toml")
        #expect(mkfifo(path, 0o600) == 0)
        #expect {
            try ConfigFile.load(path: path)
        } throws: { error in
            (error as? ConfigFileError)?.problem == "is not a regular file"
        }
    }

    @Test func aFileOthersCanWriteIsReadWithAWarningAndAPrivateOneWithout() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("config.toml", "region = \"eu-west-1\"\n")
        #expect(try ConfigFile.load(path: path).warnings.isEmpty)
        #expect(chmod(path, 0o666) == 0)
        let file = try ConfigFile.load(path: path)
        #expect(file.string("region") == "eu-west-1")
        #expect(file.warnings.count == 1)
        #expect(file.warnings.first?.contains("chmod go-w") == true)
    }

    @Test func aLinkToARegularFileIsReadAndADanglingOneIsAnError() throws {
        let dir = try TemporaryDirectory()
        let target = try dir.write("real.toml", "region = \"eu-west-1\"\n")
        let link = dir.file("config.toml")
        #expect(symlink(target, link) == 0)
        #expect(try ConfigFile.load(path: link).string("region") == "eu-west-1")
        let dangling = dir.file("dangling.toml")
        #expect(symlink(dir.file("missing.toml"), dangling) == 0)
        #expect(throws: ConfigFileError.self) { try ConfigFile.load(path: dangling) }
        #expect(try ConfigFile.load(path: dir.file("absent.toml")).exists == false)
    }

    @Test func anEscapeInAKeyIsShownEscapedInTheError() throws {
        let error = #expect(throws: ConfigFileError.self) {
            try ConfigFile.parse("\"\\u001b[31mred\" = 1\n", path: "/tmp/c\u{1B}.toml")
        }
        let text = try #require(error).description
        #expect(!text.unicodeScalars.contains("\u{1B}"))
        #expect(text.contains("\\u001B[31mred"))
    }
}
