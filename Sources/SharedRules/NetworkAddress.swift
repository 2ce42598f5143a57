/// Where an address points: the one rule for what is loopback, private, link-local or metadata, used by the
/// URL validators (before resolution) and by the transport's check of the connected address (after).
/// `agent-tool/network_address.py` mirrors it; both run `schema/examples/network-addresses.json`.
public enum NetworkAddress {
    /// What a numeric address reaches.
    public enum Scope: String, Sendable, CaseIterable {
        /// 127.0.0.0/8, ::1: this machine.
        case loopback
        /// 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), fc00::/7: a local network.
        case privateNetwork = "private"
        /// 169.254/16, fe80::/10: the link (cloud metadata and container credential services live here).
        case linkLocal = "link-local"
        /// 0/8, ::, multicast, broadcast and 240/4: nothing a request should reach.
        case reserved
        /// Everything else.
        case publicInternet = "public"
    }

    /// Host names of cloud metadata services, refused as webhooks whatever they resolve to.
    public static let metadataNames: Set<String> = [
        "metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal",
        "metadata.azure.internal",
    ]

    /// True when a URL host, as written, is loopback: four canonical decimal octets in 127.0.0.0/8, `[::1]`
    /// or `localhost`. No other spelling counts (`127.0.evil.com`, `0x7f.1`, `[::ffff:127.0.0.1]` do not).
    public static func isLoopbackHost(_ host: String) -> Bool {
        if host == "localhost" || host == "[::1]" { return true }
        guard let octets = ipv4(host) else { return false }
        return octets[0] == 127
    }

    /// The scope of a numeric address: a dotted quad, or an IPv6 address (bracketed or not). IPv4-mapped
    /// (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`) and NAT64 (`64:ff9b::a.b.c.d`) spellings take
    /// the scope of their IPv4 address. Nil when `text` is not a numeric address.
    public static func scope(of text: String) -> Scope? {
        if let octets = ipv4(text) { return scope(ipv4: octets) }
        var inner = Substring(text)
        if inner.hasPrefix("[") && inner.hasSuffix("]") { inner = inner.dropFirst().dropLast() }
        guard let bytes = ipv6(inner) else { return nil }
        return scope(ipv6: bytes)
    }

    /// Why a webhook may not go to `host` (a URL host as written: lower case, IPv6 in brackets); nil when
    /// it may. Loopback and public hosts may; private ranges only when `allowPrivate`; link-local,
    /// reserved addresses and metadata names never. Names are checked again once connected.
    public static func webhookHostRefusal(_ host: String, allowPrivate: Bool) -> String? {
        if host.hasPrefix("[") {
            guard let scope = scope(of: host) else { return "\(host) is not an IPv6 address" }
            return refusal(scope, address: host, allowPrivate: allowPrivate)
        }
        if let scope = scope(of: host) { return refusal(scope, address: host, allowPrivate: allowPrivate) }
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        if metadataNames.contains(name) { return "\(host) is a cloud metadata service" }
        // A numeric last label is no DNS name: resolvers read such hosts as other spellings of an IPv4
        // address (`2852039166`, `0xa9fea9fe`, `169.254.43518`).
        let last = name.split(separator: ".", omittingEmptySubsequences: false).last ?? ""
        if last.isEmpty || last.allSatisfy({ $0.isASCII && $0.isNumber }) || last.hasPrefix("0x") {
            return "\(host) is not a host name nor a plain dotted IPv4 address"
        }
        return nil
    }

    /// Why a request may not go on over a connection to `address` (the peer's numeric address), nil when
    /// it may.
    public static func connectedRefusal(_ address: String, policy: PeerPolicy) -> String? {
        guard let scope = scope(of: address) else { return "\(address) is not a numeric address" }
        switch policy {
        case .loopback:
            return scope == .loopback ? nil : "\(address) is not a loopback address (\(scope.rawValue))"
        case .webhook(let allowPrivate):
            return refusal(scope, address: address, allowPrivate: allowPrivate)
        }
    }

    private static func refusal(_ scope: Scope, address: String, allowPrivate: Bool) -> String? {
        switch scope {
        case .loopback, .publicInternet: return nil
        case .privateNetwork:
            return allowPrivate ? nil : "\(address) is a private address (webhook_allow_private = true allows it)"
        case .linkLocal: return "\(address) is a link-local address (cloud metadata lives there)"
        case .reserved: return "\(address) is a reserved, multicast or broadcast address"
        }
    }

    /// Four canonical decimal octets (0-255, no leading zeros), else nil.
    static func ipv4<S: StringProtocol>(_ text: S) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  part == "0" || !part.hasPrefix("0"), let value = UInt8(part) else { return nil }
            octets.append(value)
        }
        return octets
    }

    /// The 16 bytes of an IPv6 address (hex groups, one `::`, optionally a dotted quad last), else nil.
    static func ipv6(_ text: Substring) -> [UInt8]? {
        guard !text.isEmpty, text.count <= 45 else { return nil }
        let halves = text.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String, allowQuad: Bool) -> [UInt16]? {
            if part.isEmpty { return [] }
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            var out: [UInt16] = []
            for (index, field) in fields.enumerated() {
                if allowQuad, index == fields.count - 1, field.contains(".") {
                    guard let quad = ipv4(field) else { return nil }
                    out += [UInt16(quad[0]) << 8 | UInt16(quad[1]), UInt16(quad[2]) << 8 | UInt16(quad[3])]
                } else {
                    guard (1...4).contains(field.count), field.allSatisfy(\.isHexDigit), field.allSatisfy(\.isASCII),
                          let value = UInt16(field, radix: 16) else { return nil }
                    out.append(value)
                }
            }
            return out
        }
        var words: [UInt16]
        if halves.count == 2 {
            guard let head = groups(halves[0], allowQuad: false), let tail = groups(halves[1], allowQuad: true),
                  head.count + tail.count <= 7 else { return nil }
            words = head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        } else {
            guard let all = groups(halves[0], allowQuad: true), all.count == 8 else { return nil }
            words = all
        }
        return words.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    static func scope(ipv4 o: [UInt8]) -> Scope {
        switch (o[0], o[1]) {
        case (127, _): return .loopback
        case (10, _), (172, 16...31), (192, 168), (100, 64...127): return .privateNetwork
        case (169, 254): return .linkLocal
        case (0, _), (224..., _): return .reserved
        default: return .publicInternet
        }
    }

    static func scope(ipv6 b: [UInt8]) -> Scope {
        let firstTen = b[0..<10].allSatisfy { $0 == 0 }
        if firstTen && b[10] == 0xFF && b[11] == 0xFF { return scope(ipv4: Array(b[12...])) }  // ::ffff:a.b.c.d
        if b[0..<12] == [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return scope(ipv4: Array(b[12...])) }  // 64:ff9b::/96
        if firstTen && b[10] == 0 && b[11] == 0 {
            if b[12..<15].allSatisfy({ $0 == 0 }) {
                if b[15] == 1 { return .loopback }  // ::1
                if b[15] == 0 { return .reserved }  // ::
            }
            return scope(ipv4: Array(b[12...]))  // ::a.b.c.d
        }
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return .linkLocal }  // fe80::/10
        if b[0] & 0xFE == 0xFC { return .privateNetwork }  // fc00::/7
        if b[0] == 0xFF { return .reserved }  // multicast
        return .publicInternet
    }
}

/// What the transport checks the connected address against before it sends a request.
public enum PeerPolicy: Sendable, Equatable {
    /// Plain http allowed only because the host is loopback: the peer must be loopback too.
    case loopback
    /// A webhook: loopback and public peers; private ones only when allowed.
    case webhook(allowPrivate: Bool)

    /// The policy for a request to `scheme://host`: `.loopback` for plain http to a loopback host (whatever
    /// the caller asked), else `requested`.
    public static func effective(scheme: String, host: String, requested: PeerPolicy?) -> PeerPolicy? {
        var written = host.lowercased()
        if written.contains(":") && !written.hasPrefix("[") { written = "[\(written)]" }  // Foundation drops brackets
        return scheme.lowercased() == "http" && NetworkAddress.isLoopbackHost(written) ? .loopback : requested
    }
}
