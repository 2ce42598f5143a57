import Foundation
import SigV4
import Testing

@Suite struct StageTests {
    @Test func canonicalURINormalisesAndEncodes() {
        #expect(CanonicalRequest.canonicalURI("") == "/")
        #expect(CanonicalRequest.canonicalURI("/a/./b/../c//d/") == "/a/c/d/")
        #expect(CanonicalRequest.canonicalURI("/a b/é") == "/a%20b/%C3%A9")
        // Non-S3 services encode the already-encoded path once more.
        #expect(CanonicalRequest.canonicalURI("/a%20b") == "/a%2520b")
        #expect(CanonicalRequest.canonicalURI("/../..") == "/")
    }

    @Test func canonicalQuerySortsAndReencodes() {
        #expect(CanonicalRequest.canonicalQuery("b=2&a=3&a=1&c") == "a=1&a=3&b=2&c=")
        #expect(CanonicalRequest.canonicalQuery("x=a+b%2fc&y=%7e") == "x=a%2Bb%2Fc&y=~")
        #expect(CanonicalRequest.canonicalQuery("") == "")
    }

    @Test func canonicalHeadersTrimCollapseAndJoin() {
        let headers = CanonicalRequest.canonicalHeaders([
            HTTPHeader("X-B", "  two   words \t here "), HTTPHeader("x-a", "1"), HTTPHeader("X-A", " 2"),
        ])
        #expect(headers == [HTTPHeader("x-a", "1,2"), HTTPHeader("x-b", "two words here")])
    }

    @Test func headerValuesWithNothingToCollapseAreKeptAsTheyAre() {
        let cases: [(String, String)] = [
            ("", ""), ("a", "a"), ("one two", "one two"), ("AmazonSQS.ReceiveMessage", "AmazonSQS.ReceiveMessage"),
            (" lead", "lead"), ("trail ", "trail"), ("two  spaces", "two spaces"), ("tab\there", "tab here"),
            ("line\nbreak", "line break"), ("  ", ""), ("é  ü", "é ü"),
        ]
        for (value, collapsed) in cases {
            #expect(CanonicalRequest.canonicalHeaders([HTTPHeader("X", value)]) == [HTTPHeader("x", collapsed)], "\(value)")
        }
    }

    @Test func signingKeyMatchesAWSDocumentationExample() {
        // From the AWS SigV4 documentation ("Examples of how to derive a signing key").
        let key = SigV4Signer.signingKey(
            secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
            scope: CredentialScope(day: "20120215", region: "us-east-1", service: "iam"))
        #expect(Digest.hex(key) == "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d")
    }

    @Test func sessionTokenIsAddedAndSigned() {
        let request = SigningRequest(method: "POST", path: "/", headers: [HTTPHeader("Host", "sqs.us-east-1.amazonaws.com")])
        let credentials = AWSCredentials(accessKeyID: "AKID", secretAccessKey: "secret", sessionToken: "TOKEN")
        let result = SigV4Signer.signature(
            request: request, credentials: credentials, region: "us-east-1", service: "sqs",
            date: Date(timeIntervalSince1970: 0))
        #expect(result.signedHeaders == "host;x-amz-date;x-amz-security-token")
        #expect(result.headersToAdd.map(\.name) == ["X-Amz-Date", "X-Amz-Security-Token", "Authorization"])
        #expect(result.headersToAdd[0].value == "19700101T000000Z")
    }

    @Test func descriptionMasksSecrets() {
        let credentials = AWSCredentials(
            accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
            sessionToken: "SESSIONTOKENVALUE", source: "test")
        for text in [credentials.description, credentials.debugDescription, String(describing: credentials),
                     String(reflecting: credentials), "\(credentials)", { var s = ""; dump(credentials, to: &s); return s }()] {
            #expect(!text.contains("wJalrXUtnFEMI"))
            #expect(!text.contains("SESSIONTOKENVALUE"))
            #expect(!text.contains("AKIAIOSFODNN7EXAM"))
            #expect(text.contains("MPLE"))
        }
    }
}

/// The per-request shortcuts: digits written directly for `X-Amz-Date`, and the signing key reused only
/// while the secret and the scope stay the same.
@Suite struct SigningShortcutTests {
    @Test func amzDateWritesEveryFieldWithLeadingZeros() {
        let early = AmzDate(Date(timeIntervalSince1970: 946_782_245.9))  // 2000-01-02T03:04:05.9Z
        #expect(early.day == "20000102")
        #expect(early.timestamp == "20000102T030405Z")
        let late = AmzDate(Date(timeIntervalSince1970: 1_798_761_599))  // 2026-12-31T23:59:59Z
        #expect(late.day == "20261231")
        #expect(late.timestamp == "20261231T235959Z")
    }

    @Test func theSigningKeyChangesWithTheDaySecretRegionAndService() {
        let credentials = AWSCredentials(accessKeyID: "AKID", secretAccessKey: "secret-one")
        let request = SigningRequest(method: "POST", path: "/", headers: [HTTPHeader("Host", "sqs.example")])
        func signature(_ c: AWSCredentials, _ region: String, _ service: String, _ seconds: TimeInterval) -> String {
            SigV4Signer.signature(request: request, credentials: c, region: region, service: service,
                                  date: Date(timeIntervalSince1970: seconds)).signature
        }
        func expected(_ c: AWSCredentials, _ region: String, _ service: String, _ seconds: TimeInterval) -> String {
            let date = AmzDate(Date(timeIntervalSince1970: seconds))
            let scope = CredentialScope(day: date.day, region: region, service: service)
            var signed = request
            signed.headers.append(HTTPHeader("X-Amz-Date", date.timestamp))
            let canonical = CanonicalRequest.build(signed)
            let sts = SigV4Signer.stringToSign(canonicalRequest: canonical.text, timestamp: date.timestamp, scope: scope)
            return SigV4Signer.signature(
                stringToSign: sts, signingKey: SigV4Signer.signingKey(secretAccessKey: c.secretAccessKey, scope: scope))
        }
        let other = AWSCredentials(accessKeyID: "AKID", secretAccessKey: "secret-two")
        // Same day twice (cached), then each part of the key changing: always the freshly derived key's signature.
        for (c, region, service, seconds) in [
            (credentials, "us-east-1", "sqs", 1_798_700_000.0), (credentials, "us-east-1", "sqs", 1_798_700_060),
            (credentials, "us-east-1", "sqs", 1_798_800_000), (other, "us-east-1", "sqs", 1_798_800_000),
            (other, "eu-west-1", "sqs", 1_798_800_000), (other, "eu-west-1", "sns", 1_798_800_000),
        ] {
            #expect(signature(c, region, service, seconds) == expected(c, region, service, seconds))
        }
    }
}
