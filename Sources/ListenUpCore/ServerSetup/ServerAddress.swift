import Foundation

/// A server address as the user typed it, checked and normalised locally.
///
/// Normalisation: surrounding whitespace trimmed, scheme and host lower-cased,
/// trailing slashes dropped. A missing scheme is added the way ListenUp's own
/// clients add it: a bare IP address or `localhost` is tried over `http://`
/// first, then `https://`; a host name over `https://` first, then `http://`.
/// ``candidates`` lists the URLs in that order; ``url`` is the first.
///
/// Everything here is local: nothing is resolved or contacted.
public struct ServerAddress: Hashable, Sendable {
    /// What kind of host the address names.
    public enum HostKind: Hashable, Sendable {
        case ipv4, ipv6, localhost, name
    }

    /// The URLs to try, most likely first. Never empty.
    public let candidates: [URL]
    /// Whether the user typed the scheme (then it is the only candidate).
    public let schemeWasTyped: Bool
    /// The kind of host.
    public let hostKind: HostKind

    /// The normalised URL: the first candidate.
    public var url: URL { candidates[0] }

    /// Longest input accepted; anything longer is not an address.
    public static let maximumLength = 2048

    /// Checks and normalises `input`.
    /// - Returns: the address, or why `input` is not one.
    public static func parse(_ input: String) -> Result<ServerAddress, ServerAddressError> {
        let text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return .failure(.empty) }
        guard text.utf8.count <= maximumLength else { return .failure(.tooLong) }
        guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) else {
            return .failure(.containsWhitespace)
        }

        // Split off the scheme, if any.
        var scheme: String?
        var rest = Substring(text)
        if let range = text.range(of: "://") {
            let typed = text[..<range.lowerBound].lowercased()
            guard typed == "http" || typed == "https" else {
                return .failure(.unsupportedScheme(String(text[..<range.lowerBound].prefix(16))))
            }
            scheme = typed
            rest = text[range.upperBound...]
        } else if let colon = text.firstIndex(of: ":"),
                  !text[..<colon].isEmpty, text[..<colon].allSatisfy({ $0.isLetter }),
                  !text[text.index(after: colon)...].prefix(while: { $0 != "/" }).allSatisfy(\.isASCIIDigit) {
            // `ftp:host`, `javascript:alert(1)`, `mailto:x`: a scheme without `//`.
            return .failure(.unsupportedScheme(String(text[..<colon].prefix(16))))
        }

        // Authority and path.
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let remainder = rest[authorityEnd...]
        if remainder.contains("?") || remainder.contains("#") { return .failure(.queryNotAllowed) }
        if authority.contains("@") { return .failure(.credentialsNotAllowed) }
        guard !authority.isEmpty else { return .failure(.missingHost) }

        // Host and port.
        var hostPart: Substring
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return .failure(.invalidHost) }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let afterClose = authority[authority.index(after: close)...]
            if !afterClose.isEmpty {
                guard afterClose.hasPrefix(":") else { return .failure(.invalidHost) }
                portPart = afterClose.dropFirst()
            }
        } else {
            let pieces = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { return .failure(.invalidHost) }
            hostPart = pieces[0]
            portPart = pieces.count == 2 ? pieces[1] : nil
        }

        var port: Int?
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy(\.isASCIIDigit),
                  let value = Int(portPart), (1...65_535).contains(value) else {
                return .failure(.invalidPort)
            }
            port = value
        }

        let host = hostPart.lowercased()
        let kind: HostKind
        if authority.hasPrefix("[") {
            guard isIPv6(host) else { return .failure(.invalidHost) }
            kind = .ipv6
        } else if isIPv4(host) {
            kind = .ipv4
        } else if host == "localhost" || host.hasSuffix(".localhost") {
            guard isHostName(host) else { return .failure(.invalidHost) }
            kind = .localhost
        } else {
            guard isHostName(host), !looksNumeric(host) else { return .failure(.invalidHost) }
            kind = .name
        }

        // Path: keep it (a server may live under a reverse-proxy prefix), minus
        // trailing slashes; refuse dot segments and raw characters URL forbids.
        var path = String(remainder)
        while path.hasSuffix("/") { path.removeLast() }
        if path.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) { return .failure(.invalidPath) }
        guard path.unicodeScalars.allSatisfy({ pathAllowed.contains($0) }) else { return .failure(.invalidPath) }

        let hostInURL = kind == .ipv6 ? "[\(host)]" : host
        let portInURL = port.map { ":\($0)" } ?? ""
        let schemes: [String]
        if let scheme {
            schemes = [scheme]
        } else {
            schemes = (kind == .name) ? ["https", "http"] : ["http", "https"]
        }
        let urls = schemes.compactMap { URL(string: "\($0)://\(hostInURL)\(portInURL)\(path)") }
        guard !urls.isEmpty else { return .failure(.invalidHost) }
        return .success(ServerAddress(candidates: urls, schemeWasTyped: scheme != nil, hostKind: kind))
    }

    private static let pathAllowed: Set<Unicode.Scalar> = {
        var set = Set<Unicode.Scalar>()
        for s in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/%!$&'()*+,;=:@".unicodeScalars {
            set.insert(s)
        }
        return set
    }()

    private static func isIPv4(_ host: String) -> Bool {
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return false }
        return octets.allSatisfy { octet in
            !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCIIDigit)
                && (octet.count == 1 || octet.first != "0") && (Int(octet) ?? 256) <= 255
        }
    }

    /// A dotted string of digits that is not a valid IPv4 address (`999.1.1.1`,
    /// `1.2.3`): refused rather than sent to DNS as a name.
    private static func looksNumeric(_ host: String) -> Bool {
        host.allSatisfy { $0.isASCIIDigit || $0 == "." }
    }

    private static func isIPv6(_ host: String) -> Bool {
        guard !host.isEmpty, host.count <= 45 else { return false }
        var address = in6_addr()
        return inet_pton(AF_INET6, host, &address) == 1
    }

    private static func isHostName(_ host: String) -> Bool {
        guard !host.isEmpty, host.utf8.count <= 253 else { return false }
        var name = Substring(host)
        if name.hasSuffix(".") { name.removeLast() } // fully qualified form
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                && label.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Why a typed server address was refused before any network access.
public enum ServerAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing typed.
    case empty
    /// Longer than ``ServerAddress/maximumLength``.
    case tooLong
    /// Spaces, tabs or control characters inside the address.
    case containsWhitespace
    /// A scheme other than `http` or `https` (`ftp://`, `javascript:`…).
    case unsupportedScheme(String)
    /// No host after the scheme.
    case missingHost
    /// The host is not a valid name or IP address.
    case invalidHost
    /// A port that is not a number from 1 to 65535.
    case invalidPort
    /// `user:password@` in the address.
    case credentialsNotAllowed
    /// A `?query` or `#fragment`.
    case queryNotAllowed
    /// A path with dot segments or characters a URL cannot carry.
    case invalidPath

    /// A stable machine-readable name, used by the headless protocol.
    public var code: String {
        switch self {
        case .empty: "emptyURL"
        case .tooLong: "urlTooLong"
        case .containsWhitespace: "urlContainsWhitespace"
        case .unsupportedScheme: "unsupportedScheme"
        case .missingHost: "missingHost"
        case .invalidHost: "invalidHost"
        case .invalidPort: "invalidPort"
        case .credentialsNotAllowed: "credentialsInURL"
        case .queryNotAllowed: "queryInURL"
        case .invalidPath: "invalidPath"
        }
    }

    /// What the user reads under the field: what is wrong and what to do.
    public var userMessage: String {
        switch self {
        case .empty: tr("Enter the address of your ListenUp server.")
        case .tooLong: tr("That address is too long to be a server address.")
        case .containsWhitespace: tr("A server address can't contain spaces.")
        case .unsupportedScheme(let scheme):
            tr("“%@://” isn't supported. Use an address starting with http:// or https://.", scheme)
        case .missingHost: tr("Add the server's host name or IP address, like listenup.example.com.")
        case .invalidHost: tr("That isn't a valid host name or IP address.")
        case .invalidPort: tr("The port must be a number from 1 to 65535.")
        case .credentialsNotAllowed: tr("Leave out the user name and password; you'll sign in on the next page.")
        case .queryNotAllowed: tr("A server address can't contain “?” or “#”.")
        case .invalidPath: tr("The path after the host isn't valid.")
        }
    }

    public var description: String { "ServerAddressError.\(code)" }
}
