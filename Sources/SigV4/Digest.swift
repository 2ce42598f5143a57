import COpenSSL
import Foundation

/// SHA-256 and HMAC-SHA256 through OpenSSL's non-deprecated one-shot APIs.
public enum Digest {
    /// SHA-256 of `data` (32 bytes).
    public static func sha256<D: ContiguousBytes>(_ data: D) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, tl_evp_sha256(), nil)
            }
        }
        precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed")
        return Array(out.prefix(32))
    }

    /// SHA-1 of `data` (20 bytes): only for file names the AWS CLI derives with it (SSO token cache).
    public static func sha1<D: ContiguousBytes>(_ data: D) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { input in
            out.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha1(), nil)
            }
        }
        precondition(ok == 1 && length == 20, "EVP_Digest(SHA-1) failed")
        return Array(out.prefix(20))
    }

    /// HMAC-SHA256 of `data` under `key` (32 bytes).
    public static func hmacSHA256<K: ContiguousBytes, D: ContiguousBytes>(key: K, _ data: D) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            data.withUnsafeBytes { input in
                out.withUnsafeMutableBufferPointer { output in
                    HMAC(tl_evp_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                         input.baseAddress, input.count, output.baseAddress, &length)
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
