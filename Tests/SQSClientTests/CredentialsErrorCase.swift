import SQSClient

/// The `CredentialsError` that `body` throws; nil when it throws nothing or another error.
func credentialsError(_ body: () throws -> Void) -> CredentialsError? {
    do {
        try body()
        return nil
    } catch {
        return error as? CredentialsError
    }
}

extension CredentialsError {
    /// The search of a `notFound` error.
    var search: CredentialSearch? {
        if case .notFound(let search) = self { search } else { nil }
    }

    /// What the instance metadata service said at the end of a `notFound` search.
    var instanceMetadataFailure: CredentialsError? {
        if case .failed(let failure)? = search?.instanceMetadata { failure } else { nil }
    }
}

/// Every value `error` holds, however deep (a `dump`, which does not stop at `description`).
func everything(_ error: CredentialsError) -> String {
    var text = ""
    dump(error, to: &text)
    return text
}
