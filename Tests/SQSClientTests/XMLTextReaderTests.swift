import SQSClient
import Testing

@Suite struct XMLTextReaderTests {
    @Test func readsLeavesByPathSuffixWithNamespacesAndEntities() throws {
        let reader = try #require(XMLTextReader("""
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
            """))
        #expect(reader.text("Credentials", "AccessKeyId") == "ASIAEXAMPLE")
        #expect(reader.text("SecretAccessKey") == "a&b<c>d\"e'fAB")
        #expect(reader.text("AssumedRoleUser", "Arn") == "arn:aws:sts::1:assumed-role/r/s")
        #expect(reader.text("Credentials", "Empty") == "")
        #expect(reader.text("AssumedRoleUser", "AccessKeyId") == nil)
        #expect(reader.text("Missing") == nil)
    }

    @Test func malformedDocumentsAreRefused() {
        let bad = [
            "<a><b>x</a></b>",            // mismatched
            "<a><b>x</b>",                // unclosed
            "<a>text<b>x</b></a>",        // mixed content
            "<a>&unknown;</a>",           // unknown entity
            "<a>&#xZZ;</a>",              // bad reference
            "<a>&amp</a>",                // unterminated entity
            "<a><b>x</b></a>trailing",    // text after the root
            "<a",                         // unterminated tag
            "</a>",                       // close without open
        ]
        for text in bad {
            #expect(XMLTextReader(text) == nil, "\(text)")
        }
    }

    @Test func errorResponsesExposeCodeAndMessage() throws {
        let reader = try #require(XMLTextReader(
            "<ErrorResponse><Error><Type>Sender</Type><Code>ExpiredToken</Code><Message>The token expired</Message></Error><RequestId>1</RequestId></ErrorResponse>"))
        #expect(reader.text("Error", "Code") == "ExpiredToken")
        #expect(reader.text("Error", "Message") == "The token expired")
    }
}
