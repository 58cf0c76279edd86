import Foundation
import ListenUpTestSupport
import Testing
@testable import Pairing

@Suite struct PairingURITests {
    static let sample = PairingURI(name: "Anna’s Desk & Co", addresses: ["192.0.2.10", "fd00::1"], port: 45_678,
                                   fingerprint: Array(0..<32), session: Array(100..<116), code: Array(200..<216),
                                   expiresAt: Date(timeIntervalSince1970: 1_767_225_600))

    @Test func roundTrips() throws {
        let text = Self.sample.description
        #expect(text.hasPrefix("listenup-pair:v1?name=Anna%E2%80%99s%20Desk%20%26%20Co&addr=192.0.2.10&addr=fd00%3A%3A1&port=45678&fp="))
        #expect(try PairingURI.parse(text) == Self.sample)
        // Fields in any order; raw ':' allowed in an IPv6 address.
        let reordered = "listenup-pair:v1?exp=1767225600&code=\(Self.sample.codeString)&session=\(Self.sample.sessionString)"
            + "&fp=\(Self.sample.fingerprintBase64URL)&port=45678&addr=fd00::1&name=X&addr=192.0.2.10"
        let parsed = try PairingURI.parse(reordered)
        #expect(parsed.addresses == ["fd00::1", "192.0.2.10"])
        #expect(parsed.name == "X")
    }

    static func replacing(_ field: String, with value: String) -> String {
        Self.sample.description.split(separator: "&").map { item in
            item.hasPrefix(field + "=") || item.hasPrefix("listenup-pair:v1?" + field + "=")
                ? (item.hasPrefix("listenup-pair") ? "listenup-pair:v1?" : "") + field + "=" + value : String(item)
        }.joined(separator: "&")
    }

    @Test func rejectsWithSpecificErrors() {
        let valid = Self.sample.description
        let cases: [(String, PairingURIError)] = [
            ("https://example.com", .notAPairingURI),
            (valid.replacingOccurrences(of: ":v1?", with: ":v2?"), .unsupportedVersion("v2")),
            ("listenup-pair:v1", .unsupportedVersion("v1")),
            (valid + "&extra=1", .unknownField("extra")),
            (valid + "&port=45678", .duplicateField("port")),
            (valid + "&", .malformedQuery),
            (valid + "&novalue", .malformedQuery),
            (Self.replacing("name", with: "a%2"), .badPercentEncoding(field: "name")),
            (Self.replacing("name", with: "a%zz"), .badPercentEncoding(field: "name")),
            (Self.replacing("name", with: "a b"), .badPercentEncoding(field: "name")),
            (Self.replacing("name", with: "%FF%FE"), .badPercentEncoding(field: "name")),
            (Self.replacing("name", with: ""), .badName),
            (Self.replacing("name", with: "a%0Ab"), .badName),
            (Self.replacing("fp", with: Self.sample.fingerprintBase64URL + "="), .badPercentEncoding(field: "fp")),
            (Self.replacing("fp", with: "AAAA*AAA"), .badPercentEncoding(field: "fp")),
            (Self.replacing("fp", with: "AAAA.AAA"), .badBase64URL(field: "fp")),
            (Self.replacing("fp", with: "AAAB"), .badLength(field: "fp")),
            (Self.replacing("fp", with: "AB"), .badBase64URL(field: "fp")), // non-zero padding bits
            (Self.replacing("code", with: Base64URL.encode(Array(repeating: UInt8(7), count: 15))), .codeTooShort(bits: 120)),
            (Self.replacing("session", with: "AAAA"), .badLength(field: "session")),
            (Self.replacing("port", with: "0"), .badPort("0")),
            (Self.replacing("port", with: "65536"), .badPort("65536")),
            (Self.replacing("port", with: "080"), .badPort("080")),
            (Self.replacing("port", with: "-1"), .badPort("-1")),
            (Self.replacing("port", with: "8a"), .badPort("8a")),
            (Self.replacing("addr", with: "example.com"), .badAddress("example.com")),
            (Self.replacing("exp", with: "soon"), .badExpiry("soon")),
            (valid.replacingOccurrences(of: "&port=45678", with: ""), .missingField("port")),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text)") { try PairingURI.parse(text) }
        }
        let noAddress = valid.split(separator: "&").filter { !$0.hasPrefix("addr=") }.joined(separator: "&")
        #expect(throws: PairingURIError.missingField("addr")) { try PairingURI.parse(noAddress) }
    }

    @Test func anyDesktopNameBecomesAParsableName() throws {
        for raw in ["", "   ", "Desk\nTop", String(repeating: "é", count: 40), String(repeating: "👩‍👩‍👧‍👦", count: 5), "Plain"] {
            var uri = Self.sample
            uri.name = PairingURI.displayName(raw)
            #expect(try PairingURI.parse(uri.description).name == uri.name, "\(raw)")
        }
        #expect(PairingURI.displayName("") == "ListenUp")
        #expect(PairingURI.displayName("Desk\nTop") == "DeskTop")
        #expect(PairingURI.displayName(" \u{00A0}Ada's Desk\u{3000} ") == "Ada's Desk", "spaces of every kind trimmed, inner ones kept")
        #expect(PairingURI.displayName("\u{2003}\u{2003}") == "ListenUp")
        #expect(PairingURI.displayName(String(repeating: "é", count: 40)).utf8.count == 64)
    }

    @Test func base64URLIsStrict() {
        #expect(Base64URL.decode("") == [])
        #expect(Base64URL.decode("_-8") == [0xFF, 0xEF])
        #expect(Base64URL.decode("A") == nil)
        #expect(Base64URL.decode("AA==") == nil)
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    }

    /// Thousands of mutated and random inputs: the parser never crashes, and
    /// whatever it accepts prints back to something that parses to the same value.
    @Test func fuzz() throws {
        var generator = SeededRandom(seed: 0x5EED)
        let valid = Array(Self.sample.description.utf8)
        let alphabet = Array("listenup-pair:v1?&=%AaZz09-_.~:/+ #\u{0}é".utf8)
        var accepted = 0
        for round in 0..<6000 {
            var bytes = valid
            switch round % 4 {
            case 0: // flip a few bytes
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = alphabet.randomElement(using: &generator) ?? 0
                }
            case 1: // delete a slice
                let start = Int.random(in: 0..<bytes.count, using: &generator)
                bytes.removeSubrange(start..<min(bytes.count, start + Int.random(in: 1...12, using: &generator)))
            case 2: // duplicate a slice somewhere else
                let start = Int.random(in: 0..<bytes.count, using: &generator)
                let slice = bytes[start..<min(bytes.count, start + Int.random(in: 1...20, using: &generator))]
                bytes.insert(contentsOf: slice, at: Int.random(in: 0...bytes.count, using: &generator))
            default: // random garbage with the right prefix
                bytes = Array("listenup-pair:v1?".utf8) + (0..<Int.random(in: 0...120, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator) ?? 0
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let parsed = try? PairingURI.parse(text) else { continue }
            accepted += 1
            #expect(try PairingURI.parse(parsed.description) == parsed)
        }
        #expect(accepted > 0) // some mutations (e.g. of the name) stay valid

        // Random valid URIs round-trip.
        for _ in 0..<1000 {
            let name = String(String.UnicodeScalarView((0..<Int.random(in: 1...20, using: &generator)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 0x20...0x2FF, using: &generator))
            }))
            let uri = PairingURI(name: name, addresses: ["127.0.0.1"], port: Int.random(in: 1...65_535, using: &generator),
                                 fingerprint: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) },
                                 session: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) },
                                 code: (0..<Int.random(in: 16...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) },
                                 expiresAt: Date(timeIntervalSince1970: TimeInterval(Int.random(in: 0...4_000_000_000, using: &generator))))
            guard uri.name.utf8.count <= 64, !uri.name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { continue }
            #expect(try PairingURI.parse(uri.description) == uri)
        }
    }
}

