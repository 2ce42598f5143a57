/// The names inside AWS identifiers, one rule each: a queue URL's queue name, an ARN's resource name,
/// and what makes a queue or topic FIFO.
public enum AWSNames {
    /// A queue URL's last path segment (`https://sqs.REGION.amazonaws.com/ACCOUNT/NAME` → `NAME`); the
    /// text itself when it has no `/`.
    public static func queueName(_ url: String) -> String {
        String(url.split(separator: "/").last ?? Substring(url))
    }

    /// An ARN's last `:` part (`arn:aws:sns:REGION:ACCOUNT:NAME` → `NAME`); the text itself when it has none.
    public static func resourceName(ofARN arn: String) -> String {
        String(arn.split(separator: ":", omittingEmptySubsequences: false).last ?? Substring(arn))
    }

    /// A FIFO queue or topic: its name, URL or ARN ends in `.fifo`.
    public static func isFIFO(_ nameURLOrARN: String) -> Bool { nameURLOrARN.hasSuffix(".fifo") }
}
