import SigV4

/// Re-exported from SigV4 so users of SQSClient need only `import SQSClient`.
public typealias AWSCredentials = SigV4.AWSCredentials
/// Re-exported from SigV4.
public typealias HTTPHeader = SigV4.HTTPHeader
