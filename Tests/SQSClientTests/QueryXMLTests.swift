import Foundation
@testable import SQSClient
import TestSupport
import Testing

/// The one XML reader (STS answers, SNS answers, XML error bodies): strict, with clear errors.
@Suite struct QueryXMLTests {
    @Test func readsLeavesByPathSuffixWithNamespacesAndEntities() throws {
        let xml = try QueryXML("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment -->
            <AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
              <AssumeRoleResult>
                <Credentials>
                  <AccessKeyId>ASIAEXAMPLE</AccessKeyId>
                  <SecretAccessKey>a&amp;b&lt;c&gt;d&quot;e&apos;f&#65;&#x42;</SecretAccessKey>
                  <Empty/>
                </Credentials>
                <AssumedRoleUser><sts:Arn xmlns:sts="x">arn:aws:sts::1:assumed-role/r/s</sts:Arn></AssumedRoleUser>
              </AssumeRoleResult>
            </AssumeRoleResponse>
            """)
        #expect(xml.text("Credentials", "AccessKeyId") == "ASIAEXAMPLE")
        #expect(xml.text("SecretAccessKey") == "a&b<c>d\"e'fAB")
        #expect(xml.text("AssumedRoleUser", "Arn") == "arn:aws:sts::1:assumed-role/r/s")
        #expect(xml.text("Credentials", "Empty") == "")
        #expect(xml.text("AssumedRoleUser", "AccessKeyId") == nil)
        #expect(xml.text("Missing") == nil)
        #expect(xml.root.name == "AssumeRoleResponse")
    }

    @Test func findsRepeatedMembersInDocumentOrder() throws {
        let xml = try QueryXML("<R><member><A>x &amp; y &lt;z&gt; &#233;&#x2713; &quot;q&apos;</A></member><member><A>2</A></member></R>")
        #expect(xml.root.all("A").map(\.text) == ["x & y <z> é✓ \"q'", "2"])
        #expect(xml.root.all("member").count == 2)
        #expect(xml.root.all("member")[1].first("A")?.text == "2")
        #expect(xml.root.first("Missing") == nil)
    }

    @Test func cdataCommentsAndAttributesAreRead() throws {
        let xml = try QueryXML("""
            <r a="1 > 0" b='<x>'><m><![CDATA[a <b> & c]]> and &amp; <!-- gone --><?pi x?>d</m><e/><f></f></r>
            """)
        #expect(xml.text("m") == "a <b> & c and & d")
        #expect(xml.text("e") == "")
        #expect(xml.text("f") == "")
        #expect(xml.root.children.map(\.name) == ["m", "e", "f"])
    }

    @Test func malformedDocumentsGiveAClearError() {
        let bad: [(String, String)] = [
            ("<a><b>x</a></b>", "</a> closes <b>"),
            ("<a><b>x</b>", "<a> is never closed"),
            ("<a>text<b>x</b></a>", "<a> mixes text with elements"),
            ("<a>&unknown;</a>", "&unknown; is not an entity XML defines"),
            ("<a>&#xZZ;</a>", "&#xZZ; is not an entity XML defines"),
            ("<a>&#0;</a>", "&#0; is not an entity XML defines"),
            ("<a>&amp</a>", "an & starts no entity"),
            ("<a>a & b</a>", "an & starts no entity"),
            ("<a><b>x</b></a>trailing", "there is text after the root element </a>"),
            ("<a/><b/>", "there is text after the root element </a>"),
            ("<a", "the start tag <a has no >"),
            ("<a x=\"1>", "an attribute value of <a> is never closed"),
            ("</a>", "an element has no name"),
            ("", "there is no root element"),
            ("just text", "there is no root element"),
            ("<a><![CDATA[x</a>", "a CDATA section is never closed (no ]]>)"),
            ("<a><!-- x</a>", "a comment is never closed (no -->)"),
            ("<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>", "a DOCTYPE or other declaration is not accepted"),
            (String(repeating: "<a>", count: 65) + String(repeating: "</a>", count: 65), "elements nest deeper than 64 levels"),
        ]
        for (text, reason) in bad {
            do {
                let xml = try QueryXML(text)
                Issue.record("accepted \(text): root \(xml.root.name)")
            } catch {
                #expect(error.description.hasPrefix("not well-formed XML: \(reason)"), "\(text): \(error)")
                #expect(error.description.contains("(at character "), "\(text): \(error)")
            }
        }
    }

    @Test func errorResponsesExposeCodeAndMessage() throws {
        let xml = try QueryXML(
            "<ErrorResponse><Error><Type>Sender</Type><Code>ExpiredToken</Code><Message>The token expired</Message></Error><RequestId>1</RequestId></ErrorResponse>")
        #expect(xml.text("Error", "Code") == "ExpiredToken")
        #expect(xml.text("Error", "Message") == "The token expired")
    }

    @Test func aMalformedXMLErrorBodyIsSummarizedNotMined() {
        // The old lenient reader took `<Code>` out of any text; a malformed body is now shown as text.
        let response = HTTPResponse(status: 403, headers: [], body: Array("<Error><Code>Denied</Code><Message>a & b</Error>".utf8))
        let error = SQSError.decode(response)
        #expect(error.code == "HTTP 403")
        #expect(error.kind == .auth)
        #expect(error.message == "Denied a & b")
    }

    @Test func stsErrorsAndMalformedAnswersSayWhatCameBack() {
        let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret", sessionToken: nil)
        func ask(_ status: Int, _ body: String) -> String {
            let transport = ScriptedTransport { _ in HTTPResponse(status: status, headers: [], body: Array(body.utf8)) }
            let sts = STSClient(endpoint: URL(string: "http://127.0.0.1:9/")!, region: "us-east-1", transport: transport)
            do {
                let arn = try sts.callerARN(credentials)
                return "accepted: \(arn)"
            } catch {
                return error.message
            }
        }
        // An XML error: its code and message, through the one error decoder.
        #expect(ask(403, "<ErrorResponse><Error><Code>InvalidClientTokenId</Code><Message>bad &amp; gone</Message></Error></ErrorResponse>")
            == "STS could not ask who the credentials are: InvalidClientTokenId: bad & gone")
        // An HTML page: the status and what the page says (the old STS reader said only the status).
        #expect(ask(503, "<html><body><h1>Service Unavailable</h1></body></html>")
            == "STS could not ask who the credentials are: HTTP 503: Service Unavailable")
        // A success that is not well-formed: the reader's reason.
        #expect(ask(200, "<GetCallerIdentityResponse><Arn>x</GetCallerIdentityResponse>")
            .hasPrefix("STS answer to GetCallerIdentity is not well-formed XML: </GetCallerIdentityResponse> closes <Arn>"))
        #expect(ask(200, "<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>arn:aws:iam::1:user/a</Arn></GetCallerIdentityResult></GetCallerIdentityResponse>")
            == "accepted: arn:aws:iam::1:user/a")
    }
}
