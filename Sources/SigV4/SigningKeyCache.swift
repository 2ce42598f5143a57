import Foundation
import Synchronization

/// The last signing key derived, reused while the secret and the scope (day, region, service) stay the
/// same: deriving it costs four HMACs, and every request of a poller signs with the same key all day.
enum SigningKeyCache {
    private static let last = Mutex<(secret: String, scope: CredentialScope, key: [UInt8])?>(nil)

    static func key(secretAccessKey: String, scope: CredentialScope) -> [UInt8] {
        if let hit = last.withLock({ $0 }), hit.secret == secretAccessKey, hit.scope == scope { return hit.key }
        let key = SigV4Signer.signingKey(secretAccessKey: secretAccessKey, scope: scope)
        last.withLock { $0 = (secretAccessKey, scope, key) }
        return key
    }
}
