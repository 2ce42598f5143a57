import Foundation
import SharedRules

/// A URL as it may be shown: any `user:password@` in it as `****@` (credentials are never printed),
/// safe for a terminal.
public enum MaskedURL {
    public static func text(_ url: String) -> String {
        guard var parts = URLComponents(string: url), parts.user != nil || parts.password != nil else {
            return DisplayText.sanitize(url)
        }
        parts.user = "****"
        parts.password = nil
        return DisplayText.sanitize(parts.string ?? url)
    }
}
