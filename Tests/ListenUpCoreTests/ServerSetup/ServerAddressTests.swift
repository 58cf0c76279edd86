import Foundation
import Testing
@testable import ListenUpCore

@Suite("ServerAddress normalisation")
struct ServerAddressTests {
    /// Input → the candidate URLs, in the order they are to be tried.
    static let accepted: [(String, [String])] = [
        ("listenup.example.com", ["https://listenup.example.com", "http://listenup.example.com"]),
        ("  listenup.example.com  ", ["https://listenup.example.com", "http://listenup.example.com"]),
        ("\tlistenup.example.com\n", ["https://listenup.example.com", "http://listenup.example.com"]),
        ("listenup.example.com/", ["https://listenup.example.com", "http://listenup.example.com"]),
        ("listenup.example.com///", ["https://listenup.example.com", "http://listenup.example.com"]),
        ("LISTENUP.Example.COM", ["https://listenup.example.com", "http://listenup.example.com"]),
        ("https://listenup.example.com", ["https://listenup.example.com"]),
        ("HTTPS://Listenup.Example.com/", ["https://listenup.example.com"]),
        ("http://listenup.example.com:8080", ["http://listenup.example.com:8080"]),
        ("listenup.example.com:8443", ["https://listenup.example.com:8443", "http://listenup.example.com:8443"]),
        ("192.168.1.20", ["http://192.168.1.20", "https://192.168.1.20"]),
        ("192.168.1.20:8080/", ["http://192.168.1.20:8080", "https://192.168.1.20:8080"]),
        ("localhost:8080", ["http://localhost:8080", "https://localhost:8080"]),
        ("LocalHost", ["http://localhost", "https://localhost"]),
        ("api.localhost:9000", ["http://api.localhost:9000", "https://api.localhost:9000"]),
        ("[::1]:8080", ["http://[::1]:8080", "https://[::1]:8080"]),
        ("[fe80::1]", ["http://[fe80::1]", "https://[fe80::1]"]),
        ("nas", ["https://nas", "http://nas"]),
        ("nas.local:8080", ["https://nas.local:8080", "http://nas.local:8080"]),
        ("example.com/listenup/", ["https://example.com/listenup", "http://example.com/listenup"]),
        ("https://example.com/audio%20books", ["https://example.com/audio%20books"]),
        ("my-server.example.com", ["https://my-server.example.com", "http://my-server.example.com"]),
        ("example.com.", ["https://example.com.", "http://example.com."]),
        ("http://10.0.0.1:65535", ["http://10.0.0.1:65535"]),
    ]

    /// Input → why it is refused.
    static let refused: [(String, ServerAddressError)] = [
        ("", .empty),
        ("   \t\n ", .empty),
        ("ftp://files.example.com", .unsupportedScheme("ftp")),
        ("javascript:alert(1)", .unsupportedScheme("javascript")),
        ("file:///etc/passwd", .unsupportedScheme("file")),
        ("mailto:admin@example.com", .unsupportedScheme("mailto")),
        ("https://", .missingHost),
        ("http:///path", .missingHost),
        ("https://user:secret@example.com", .credentialsNotAllowed),
        ("evil.com@listenup.example.com", .credentialsNotAllowed),
        ("example.com:0", .invalidPort),
        ("example.com:65536", .invalidPort),
        ("example.com:80a", .invalidPort),
        ("example.com:", .invalidPort),
        ("example.com:-1", .invalidPort),
        ("exa mple.com", .containsWhitespace),
        ("example.com/\u{0}", .containsWhitespace),
        ("example.com/?next=evil", .queryNotAllowed),
        ("example.com#frag", .queryNotAllowed),
        ("-bad-.example.com", .invalidHost),
        ("exa$mple.com", .invalidHost),
        ("bücher.example", .invalidHost),
        ("999.1.1.1", .invalidHost),
        ("1.2.3", .invalidHost),
        ("[::1", .invalidHost),
        ("[not-ipv6]:80", .invalidHost),
        ("a..b", .invalidHost),
        ("example.com/../admin", .invalidPath),
        ("example.com/<script>", .invalidPath),
        ("https://" + String(repeating: "a", count: 64) + ".com", .invalidHost),
        (String(repeating: "a.", count: 1100), .tooLong),
    ]

    @Test("accepted addresses normalise", arguments: accepted)
    func accepts(input: String, expected: [String]) throws {
        let address = try ServerAddress.parse(input).get()
        #expect(address.candidates.map(\.absoluteString) == expected)
        #expect(address.url.absoluteString == expected[0])
    }

    @Test("malformed and hostile addresses are refused", arguments: refused)
    func refuses(input: String, expected: ServerAddressError) {
        #expect(throws: expected) { try ServerAddress.parse(input).get() }
    }

    @Test func tableIsLargeEnough() {
        #expect(Self.accepted.count + Self.refused.count >= 25)
    }

    @Test func everyErrorHasACodeAndAMessage() {
        for (_, error) in Self.refused {
            #expect(!error.code.isEmpty)
            #expect(!error.userMessage.isEmpty)
        }
    }

    @Test func typedSchemeIsTheOnlyCandidate() throws {
        let address = try ServerAddress.parse("http://listenup.example.com").get()
        #expect(address.schemeWasTyped)
        #expect(address.candidates.count == 1)
        #expect(address.hostKind == .name)
    }
}
