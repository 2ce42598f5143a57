import ArgumentParser

/// What a command's `validate()` threw that is not ArgumentParser's own (`ValidationError`, `CleanExit`,
/// `ExitCode`): ArgumentParser hands it back wrapped in its parse error, and it goes to the one error path
/// (`FailureReport`) like an error from `run()`.
enum ValidateFailure {
    /// The error `validate()` threw, when `parseError` (from `parseAsRoot`) carries one of the command's own.
    static func thrown(in parseError: any Error) -> (any Error)? {
        // ArgumentParser's wrapper and its `userValidationError(Error)` case are not public: read them by name.
        guard let parserError = child("parserError", of: parseError),
              let wrapped = child("userValidationError", of: parserError) as? any Error,
              !(wrapped is ValidationError), !(wrapped is CleanExit), !(wrapped is ExitCode) else { return nil }
        return wrapped
    }

    private static func child(_ label: String, of value: Any) -> Any? {
        Mirror(reflecting: value).children.first { $0.label == label }?.value
    }
}
