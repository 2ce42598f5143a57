import Foundation
import Testing
import TestSupport
import TimelineStore

/// The database path must name a regular file: links, FIFOs and directories are refused untouched.
@Suite struct DatabaseFileKindTests {
    @Test func aSymbolicLinkIsNotTakenOverEvenToAnEmptyFile() throws {
        let dir = try TemporaryDirectory()
        let target = try dir.write("elsewhere", "")
        let link = dir.file("timeline.db")
        #expect(symlink(target, link) == 0)
        #expect {
            try TimelineStore(path: link)
        } throws: { error in
            (error as? StoreError)?.description.contains("is a symbolic link, not a database file") == true
        }
        #expect(try FileManager.default.attributesOfItem(atPath: target)[.size] as? Int == 0, "the target is untouched")
    }

    @Test func aFIFOIsRefusedAtOnceForReadingAndWriting() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("timeline.db")
        #expect(mkfifo(path, 0o600) == 0)
        for readOnly in [true, false] {
            #expect {
                try TimelineStore(path: path, readOnly: readOnly)
            } throws: { error in
                (error as? StoreError)?.description.contains("is a FIFO") == true
            }
        }
    }
}
