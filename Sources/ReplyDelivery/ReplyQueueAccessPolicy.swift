import StrictJSON

/// The queue policy of a reply queue (`timeline setup --reply-queue`): only the named principals may
/// `sqs:SendMessage` to it. An Allow for them (enough across accounts) and a Deny for every other principal
/// (needed within the account, where identity policies alone would let anyone with `sqs:SendMessage` send).
public enum ReplyQueueAccessPolicy {
    /// A principal is not an IAM user or role ARN.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The policy document for `queueARN` and `senders` (IAM user or role ARNs), compact JSON.
    public static func document(queueARN: String, senders: [String]) -> String {
        let principals = "[" + senders.map { JSONWriter.quoted($0) }.joined(separator: ",") + "]"
        let resource = JSONWriter.quoted(queueARN)
        return #"{"Version":"2012-10-17","Statement":["#
            + #"{"Sid":"timeline-reply-senders","Effect":"Allow","Principal":{"AWS":\#(principals)},"#
            + #""Action":"sqs:SendMessage","Resource":\#(resource)},"#
            + #"{"Sid":"timeline-only-reply-senders","Effect":"Deny","Principal":"*","Action":"sqs:SendMessage","#
            + #""Resource":\#(resource),"Condition":{"ArnNotEquals":{"aws:PrincipalArn":\#(principals)}}}]}"#
    }

    /// `arn` as a policy principal: an IAM user or role ARN as it is; an STS assumed-role ARN
    /// (`arn:aws:sts::123456789012:assumed-role/Name/session`, what GetCallerIdentity says of a role) becomes the
    /// role's ARN (`arn:aws:iam::123456789012:role/Name`; a role with a path must be given with it).
    public static func principal(_ arn: String) throws(Problem) -> String {
        let parts = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 6, parts[0] == "arn", parts[1].hasPrefix("aws"), parts[3].isEmpty,
              parts[4].count == 12, parts[4].allSatisfy(\.isNumber) else {
            throw Problem(description: "\(arn) is not an IAM ARN (arn:aws:iam::123456789012:user/NAME or role/NAME)")
        }
        let resource = parts[5]
        switch parts[2] {
        case "iam" where (resource.hasPrefix("user/") || resource.hasPrefix("role/")) && resource.split(separator: "/").count >= 2:
            return arn
        case "sts" where resource.hasPrefix("assumed-role/"):
            let pieces = resource.split(separator: "/")
            guard pieces.count == 3 else { break }
            return "arn:\(parts[1]):iam::\(parts[4]):role/\(pieces[1])"
        default: break
        }
        throw Problem(description: "\(arn) is not an IAM user or role ARN (arn:aws:iam::123456789012:user/NAME or role/NAME)")
    }

    /// The principals an existing policy allows and restricts `sqs:SendMessage` to: what this builder wrote
    /// (compared by content, not spacing), nil otherwise.
    public static func senders(in policy: String?) -> [String]? {
        guard let policy, let document = JSONReader.object(from: Array(policy.utf8)),
              let statements = document["Statement"] as? [[String: Any]] else { return nil }
        let allow = statements.first { $0["Sid"] as? String == "timeline-reply-senders" }
        let deny = statements.first { $0["Sid"] as? String == "timeline-only-reply-senders" }
        func strings(_ value: Any?) -> [String]? { (value as? [String]) ?? (value as? String).map { [$0] } }
        guard let allowed = strings((allow?["Principal"] as? [String: Any])?["AWS"]),
              let condition = strings(((deny?["Condition"] as? [String: Any])?["ArnNotEquals"] as? [String: Any])?["aws:PrincipalArn"]),
              Set(allowed) == Set(condition) else { return nil }
        return allowed
    }
}
