import COpenSSL
import Foundation

/// SHA-256 and HMAC-SHA256 through OpenSSL's non-deprecated one-shot APIs (libcrypto is opened at the
/// first digest: see COpenSSL's shim.h).
public enum Digest {
    /// Why libcrypto cannot be used, or nil when it can (opens it on first use). Callers that can report
    /// an error check this before their first digest: a digest without the library stops the program.
    public static var libraryProblem: String? { tl_crypto_open().map { String(cString: $0) } }

    /// Opens libcrypto on first use (later calls cost one `pthread_once` check). Without it no request can
    /// be signed (nor sent: libcurl needs it too), so a missing library stops the program with the reason.
    private static func openLibrary() {
        if let problem = libraryProblem { fatalError(problem) }
    }

    /// SHA-256 of `data` (32 bytes).
    public static func sha256<D: ContiguousBytes>(_ data: D) -> [UInt8] {
        digest(data, sha1: false, length: 32)
    }

    /// SHA-1 of `data` (20 bytes): only for file names the AWS CLI derives with it (SSO token cache).
    public static func sha1<D: ContiguousBytes>(_ data: D) -> [UInt8] {
        digest(data, sha1: true, length: 20)
    }

    private static func digest<D: ContiguousBytes>(_ data: D, sha1: Bool, length expected: Int) -> [UInt8] {
        openLibrary()
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer { output in
                tl_digest(input.baseAddress, input.count, output.baseAddress, &length, sha1 ? 1 : 0)
            }
        }
        precondition(ok == 1 && length == expected, "EVP_Digest failed")
        return Array(out.prefix(expected))
    }

    /// HMAC-SHA256 of `data` under `key` (32 bytes).
    public static func hmacSHA256<K: ContiguousBytes, D: ContiguousBytes>(key: K, _ data: D) -> [UInt8] {
        openLibrary()
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            data.withUnsafeBytes { input in
                out.withUnsafeMutableBufferPointer { output in
                    tl_hmac_sha256(keyBytes.baseAddress, Int32(keyBytes.count),
                                   input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count,
                                   output.baseAddress, &length)
                }
            }
        }
        precondition(result != nil && length == 32, "HMAC(SHA-256) failed")
        return Array(out.prefix(32))
    }

    /// Lower-case hexadecimal form of `bytes`.
    public static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var chars: [UInt8] = []
        chars.reserveCapacity(64)
        for byte in bytes {
            chars.append(digits[Int(byte >> 4)])
            chars.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: chars, as: UTF8.self)
    }
}
