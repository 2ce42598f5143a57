import TestSupport
import Foundation
import SigV4
import Testing

/// Signs ~20 generated requests with this signer and with botocore's `SigV4Auth` (Python) and
/// compares the Authorization headers exactly.
@Suite struct BotocoreCrossCheckTests {
    struct Case: Codable {
        var method: String
        var url: String
        var path: String
        var query: String
        var host: String
        var headers: [[String]]
        var body: String  // base64
        var region: String
        var service: String
        var accessKeyID: String
        var secretAccessKey: String
        var sessionToken: String?
        var epochSeconds: Int
    }

    static let script = #"""
import base64, datetime, json, sys
import botocore.auth
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

out = []
for case in json.load(sys.stdin):
    fixed = datetime.datetime.fromtimestamp(case["epochSeconds"], datetime.timezone.utc).replace(tzinfo=None)
    botocore.auth.get_current_datetime = lambda fixed=fixed: fixed
    request = AWSRequest(method=case["method"], url=case["url"],
                         headers={name: value for name, value in case["headers"]},
                         data=base64.b64decode(case["body"]))
    credentials = Credentials(case["accessKeyID"], case["secretAccessKey"], case.get("sessionToken"))
    SigV4Auth(credentials, case["service"], case["region"]).add_auth(request)
    out.append(request.headers["Authorization"])
print(json.dumps(out))
"""#

    @Test func authorizationMatchesBotocore() throws {
        var generator = SplitMix64(seed: 20_261_122)
        let cases = (0..<20).map { Self.makeCase(index: $0, using: &generator) }
        let input = try JSONEncoder().encode(cases)
        let output = try Self.runPython(Self.script, stdin: input)
        let expected = try JSONDecoder().decode([String].self, from: output)
        try #require(expected.count == cases.count)
        for (index, item) in cases.enumerated() {
            var headers = item.headers.map { HTTPHeader($0[0], $0[1]) }
            headers.append(HTTPHeader("Host", item.host))
            let request = SigningRequest(
                method: item.method, path: item.path, query: item.query, headers: headers,
                body: Array(Data(base64Encoded: item.body)!))
            let credentials = AWSCredentials(
                accessKeyID: item.accessKeyID, secretAccessKey: item.secretAccessKey, sessionToken: item.sessionToken)
            let ours = SigV4Signer.signature(
                request: request, credentials: credentials, region: item.region, service: item.service,
                date: Date(timeIntervalSince1970: TimeInterval(item.epochSeconds)))
            #expect(ours.authorization == expected[index], "case \(index): \(item.method) \(item.url)\n\(ours.canonicalRequest)")
        }
    }

    static func makeCase(index: Int, using generator: inout SplitMix64) -> Case {
        let hosts = ["sqs.us-east-1.amazonaws.com", "127.0.0.1:4566", "example.amazonaws.com", "localhost:9324"]
        let host = hosts[index % hosts.count]
        let scheme = host.contains(":") ? "http" : "https"
        let segments = ["queue", "ሴ", "a b", "dollar$sign", "tilde~ok", "plus+sign", "%41lready", "é", "x.y", "..", ".", ""]
        var path = ""
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            path += "/" + segments.randomElement(using: &generator)!
        }
        if path.isEmpty || Bool.random(using: &generator) { path += "/" }
        let keys = ["Action", "a", "Z", "key with space", "ünï", "reserved!*'()", "slash/x", "amp&eq=", "b"]
        let values = ["", "1", "v a l", "ሴ", "100%", "a+b", "~-._", "q?x#y", "="]
        var pairs: [String] = []
        for _ in 0..<Int.random(in: 0...4, using: &generator) {
            pairs.append(URIEncoding.encode(keys.randomElement(using: &generator)!) + "="
                         + URIEncoding.encode(values.randomElement(using: &generator)!))
        }
        let query = pairs.joined(separator: "&")
        let headerNames = ["X-Custom-Alpha", "x-amz-meta-thing", "Content-Type", "X-Amz-Target", "Accept", "X-Zeta", "My-Header"]
        let headerValues = ["plain", "  padded  ", "multiple   inner    spaces", "tab\tinside", "application/x-amz-json-1.0", "AmazonSQS.ReceiveMessage", "a,b,c", "\"quoted   value\""]
        var headers: [[String]] = []
        for name in headerNames.shuffled(using: &generator).prefix(Int.random(in: 0...4, using: &generator)) {
            headers.append([name, headerValues.randomElement(using: &generator)!])
        }
        let method = ["GET", "POST", "PUT", "DELETE"].randomElement(using: &generator)!
        var body: [UInt8] = []
        if method != "GET" {
            body = Array(#"{"QueueUrl":"https://q","MessageBody":"héllo ✓ \#(index)"}"#.utf8)
            if Bool.random(using: &generator) { body = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        }
        let urlPath = path.unicodeScalars.map { $0 == " " ? "%20" : String($0) }.joined()
        return Case(
            method: method, url: "\(scheme)://\(host)\(urlPath)\(query.isEmpty ? "" : "?" + query)",
            path: urlPath, query: query, host: host, headers: headers, body: Data(body).base64EncodedString(),
            region: ["us-east-1", "eu-west-1", "ap-northeast-1"].randomElement(using: &generator)!,
            service: ["sqs", "service", "iam"].randomElement(using: &generator)!,
            accessKeyID: "AKIA\(index)EXAMPLE", secretAccessKey: "secret/\(index)+key=\(UInt32.random(in: 0...UInt32.max, using: &generator))",
            sessionToken: Bool.random(using: &generator) ? "token-\(index)/+=" : nil,
            epochSeconds: 1_700_000_000 + Int.random(in: 0...100_000_000, using: &generator))
    }

    static func runPython(_ script: String, stdin: Data) throws -> Data {
        let python = ProcessInfo.processInfo.environment["TIMELINE_PYTHON"] ?? "python3"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, "-c", script]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(python) with botocore failed: \(errorText)")
        return data
    }
}
