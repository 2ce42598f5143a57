/// What SigV4 needs of an HTTP request.
public struct SigningRequest: Sendable {
    /// `GET`, `POST`, ...
    public var method: String
    /// The path as it appears in the URL (percent-encoded or raw); SigV4 normalises and encodes it.
    public var path: String
    /// The raw query string without the leading `?` (may be empty).
    public var query: String
    /// Every header to sign, including `Host`.
    public var headers: [HTTPHeader]
    /// The request body.
    public var body: [UInt8]

    public init(method: String, path: String, query: String = "", headers: [HTTPHeader], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }
}

/// The `date/region/service/aws4_request` part of a signature.
public struct CredentialScope: Sendable, Equatable {
    /// `YYYYMMDD` in UTC.
    public var day: String
    public var region: String
    public var service: String

    public init(day: String, region: String, service: String) {
        self.day = day
        self.region = region
        self.service = service
    }

    /// `20150830/us-east-1/service/aws4_request`.
    public var text: String { "\(day)/\(region)/\(service)/aws4_request" }
}
