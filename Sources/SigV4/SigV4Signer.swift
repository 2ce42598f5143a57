import Foundation

/// AWS Signature Version 4 (`AWS4-HMAC-SHA256`): one function per stage, the clock passed in.
public enum SigV4Signer {
    public static let algorithm = "AWS4-HMAC-SHA256"

    /// Every intermediate value of one signature (useful for tests and `doctor`).
    public struct Signature: Sendable, Equatable {
        public var canonicalRequest: String
        public var stringToSign: String
        public var signedHeaders: String
        public var signature: String
        public var authorization: String
        /// Headers the caller must add to the request: `X-Amz-Date`, maybe `X-Amz-Security-Token`,
        /// and `Authorization`.
        public var headersToAdd: [HTTPHeader]
    }

    /// Stage 2: the string to sign.
    public static func stringToSign(canonicalRequest: String, timestamp: String, scope: CredentialScope) -> String {
        [algorithm, timestamp, scope.text, Digest.hex(Digest.sha256(Array(canonicalRequest.utf8)))]
            .joined(separator: "\n")
    }

    /// Stage 3: the signing key derived from the secret and the scope.
    public static func signingKey(secretAccessKey: String, scope: CredentialScope) -> [UInt8] {
        let dateKey = Digest.hmacSHA256(key: Array("AWS4\(secretAccessKey)".utf8), Array(scope.day.utf8))
        let regionKey = Digest.hmacSHA256(key: dateKey, Array(scope.region.utf8))
        let serviceKey = Digest.hmacSHA256(key: regionKey, Array(scope.service.utf8))
        return Digest.hmacSHA256(key: serviceKey, Array("aws4_request".utf8))
    }

    /// Stage 4a: the hex signature of the string to sign.
    public static func signature(stringToSign: String, signingKey: [UInt8]) -> String {
        Digest.hex(Digest.hmacSHA256(key: signingKey, Array(stringToSign.utf8)))
    }

    /// Stage 4b: the `Authorization` header value.
    public static func authorization(
        accessKeyID: String, scope: CredentialScope, signedHeaders: String, signature: String
    ) -> String {
        "\(algorithm) Credential=\(accessKeyID)/\(scope.text), SignedHeaders=\(signedHeaders), Signature=\(signature)"
    }

    /// Signs `request` at `date`: sets `X-Amz-Date` (replacing any present), adds
    /// `X-Amz-Security-Token` when the credentials carry a token and the request has none (it is
    /// signed), and returns every intermediate value.
    public static func signature(
        request: SigningRequest, credentials: AWSCredentials, region: String, service: String, date: Date
    ) -> Signature {
        let amzDate = AmzDate(date)
        let scope = CredentialScope(day: amzDate.day, region: region, service: service)
        var added: [HTTPHeader] = [HTTPHeader("X-Amz-Date", amzDate.timestamp)]
        var toSign = request
        toSign.headers.removeAll { $0.name.lowercased() == "x-amz-date" }
        toSign.headers.append(added[0])
        if let token = credentials.sessionToken, toSign.headers.value(for: "x-amz-security-token") == nil {
            let header = HTTPHeader("X-Amz-Security-Token", token)
            toSign.headers.append(header)
            added.append(header)
        }
        let canonical = CanonicalRequest.build(toSign)
        let sts = stringToSign(canonicalRequest: canonical.text, timestamp: amzDate.timestamp, scope: scope)
        let key = SigningKeyCache.key(secretAccessKey: credentials.secretAccessKey, scope: scope)
        let hexSignature = signature(stringToSign: sts, signingKey: key)
        let authz = authorization(
            accessKeyID: credentials.accessKeyID, scope: scope,
            signedHeaders: canonical.signedHeaders, signature: hexSignature)
        added.append(HTTPHeader("Authorization", authz))
        return Signature(
            canonicalRequest: canonical.text, stringToSign: sts, signedHeaders: canonical.signedHeaders,
            signature: hexSignature, authorization: authz, headersToAdd: added)
    }

    /// Signs `request` and returns the headers to add to it (`X-Amz-Date`,
    /// `X-Amz-Security-Token` when there is a token, `Authorization`).
    public static func sign(
        request: SigningRequest, credentials: AWSCredentials, region: String, service: String, date: Date
    ) -> [HTTPHeader] {
        signature(request: request, credentials: credentials, region: region, service: service, date: date)
            .headersToAdd
    }
}
