import Foundation
import SigV4
import Testing

/// Runs every case of the AWS SigV4 test suite (see its README: fixed key, date, region, service).
@Suite struct AWSTestSuiteTests {
    static let credentials = AWSCredentials(
        accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    static let sessionToken = "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267"
    /// 2015-08-30T12:36:00Z
    static let date = Date(timeIntervalSince1970: 1_440_938_160)

    @Test func suiteIsPresentAndComplete() throws {
        let directory = try #require(
            TestSuiteLocation.directory,
            "AWS SigV4 test suite not found; looked in: \(TestSuiteLocation.candidates.joined(separator: ", ")). Set SIGV4_TEST_SUITE to its directory.")
        let cases = TestSuiteLocation.cases()
        #expect(cases.count == 34, "expected 34 cases in \(directory.path), found \(cases.count): \(cases)")
    }

    @Test(arguments: TestSuiteLocation.cases())
    func testSuiteCase(_ name: String) throws {
        let root = try #require(TestSuiteLocation.directory)
        let folder = root.appendingPathComponent(name)
        let base = folder.lastPathComponent
        func read(_ ext: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent("\(base).\(ext)"), encoding: .utf8)
        }
        let request = try RawRequestParser.parse(try read("req"))
        var credentials = Self.credentials
        // The token is signed in this case although the .req does not carry it; in
        // post-sts-header-before the .req carries it; in post-sts-header-after it is added after signing.
        if base == "get-vanilla-with-session-token" { credentials.sessionToken = Self.sessionToken }

        let result = SigV4Signer.signature(
            request: request, credentials: credentials, region: "us-east-1", service: "service", date: Self.date)
        #expect(result.canonicalRequest == (try read("creq")), "canonical request of \(name)")
        #expect(result.stringToSign == (try read("sts")), "string to sign of \(name)")
        #expect(result.authorization == (try read("authz")), "Authorization of \(name)")
    }
}
