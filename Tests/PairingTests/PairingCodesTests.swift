import Foundation
import Testing
@testable import Pairing

@Suite struct PairingCodesTests {
    let t0 = Date(timeIntervalSince1970: 1_000_000)

    func current(_ codes: PairingCodes) -> PairingCode? {
        if case .open(let code, _) = codes.state { code } else { nil }
    }

    @Test func rotatesWithGraceAndExpires() throws {
        var codes = PairingCodes()
        #expect(codes.state == .closed)
        codes.open(now: t0)
        let first = try #require(current(codes))
        #expect(first.code.count * 8 >= 128 && first.session.count * 8 >= 128)
        let r1 = codes.advance(now: t0.addingTimeInterval(29))
        #expect(!r1)
        let r2 = codes.advance(now: t0.addingTimeInterval(30))
        #expect(r2)
        let second = try #require(current(codes))
        #expect(second.session != first.session && second.code != first.code)
        // The previous code still works in the 10 s grace...
        var inGrace = codes
        let r3 = inGrace.verify(session: first.sessionString, code: first.codeString, now: t0.addingTimeInterval(39))
        #expect(r3 == .accepted)
        // ...and not after it.
        let r4 = codes.verify(session: first.sessionString, code: first.codeString, now: t0.addingTimeInterval(40))
        #expect(r4 == .expired)
        codes.advance(now: t0.addingTimeInterval(299))
        #expect(current(codes) != nil)
        let r5 = codes.advance(now: t0.addingTimeInterval(300))
        #expect(r5)
        #expect(codes.state == .expired)
        let last = second
        let r6 = codes.verify(session: last.sessionString, code: last.codeString, now: t0.addingTimeInterval(301))
        #expect(r6 == .expired)
        codes.open(now: t0.addingTimeInterval(400)) // "Show a new code"
        #expect(current(codes) != nil)
    }

    @Test func aCodeWorksOnce() throws {
        var codes = PairingCodes()
        codes.open(now: t0)
        let code = try #require(current(codes))
        let r7 = codes.verify(session: code.sessionString, code: code.codeString, now: t0)
        #expect(r7 == .accepted)
        let r8 = codes.verify(session: code.sessionString, code: code.codeString, now: t0)
        #expect(r8 == .used)
        #expect(current(codes)?.session != code.session) // a fresh code is shown at once
    }

    @Test func threeWrongAttemptsBurnTheCode() throws {
        var codes = PairingCodes()
        codes.open(now: t0)
        let code = try #require(current(codes))
        let wrong = Base64URL.encode([UInt8](repeating: 1, count: 16))
        let r9 = codes.verify(session: code.sessionString, code: wrong, now: t0)
        #expect(r9 == .wrongCode(remaining: 2))
        let r10 = codes.verify(session: code.sessionString, code: wrong, now: t0)
        #expect(r10 == .wrongCode(remaining: 1))
        let r11 = codes.verify(session: code.sessionString, code: wrong, now: t0)
        #expect(r11 == .wrongCode(remaining: 0))
        let r12 = codes.verify(session: code.sessionString, code: code.codeString, now: t0)
        #expect(r12 == .burned)
        let r13 = codes.verify(session: "nope", code: code.codeString, now: t0)
        #expect(r13 == .unknownSession)
        codes.close()
        let r14 = codes.verify(session: code.sessionString, code: code.codeString, now: t0)
        #expect(r14 == .closed)
    }

    @Test func comparisonCodeIsSixDigitsAndBindsBothParties() {
        let code = ComparisonCode.make(code: "c", session: "s", fingerprint: "f", clientName: "Phone")
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        #expect(code != ComparisonCode.make(code: "c", session: "s", fingerprint: "f", clientName: "Phone2"))
        #expect(code != ComparisonCode.make(code: "c", session: "s", fingerprint: "g", clientName: "Phone"))
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]) && !ConstantTime.equals([1, 2, 3], [1, 2, 4]) && !ConstantTime.equals([1, 2], [1, 2, 0]))
    }

    @Test func lanAddressSelection() {
        typealias I = LANAddresses.Interface
        let all = [I(name: "lo", address: "127.0.0.1", isUp: true, isLoopback: true),
                   I(name: "docker0", address: "172.17.0.1", isUp: true, isLoopback: false),
                   I(name: "veth12", address: "172.18.0.1", isUp: true, isLoopback: false),
                   I(name: "virbr0", address: "192.168.122.1", isUp: true, isLoopback: false),
                   I(name: "br-abc", address: "172.19.0.1", isUp: true, isLoopback: false),
                   I(name: "tun0", address: "10.8.0.2", isUp: true, isLoopback: false),
                   I(name: "tap0", address: "10.9.0.2", isUp: true, isLoopback: false),
                   I(name: "eth1", address: "198.51.100.7", isUp: false, isLoopback: false),
                   I(name: "wlan0", address: "192.0.2.5", isUp: true, isLoopback: false)]
        #expect(LANAddresses.select(from: all) == ["192.0.2.5"])
        #expect(LANAddresses.select(from: Array(all.dropLast())) == ["127.0.0.1"])
        #expect(LANAddresses.override(in: ["LISTENUP_PAIRING_BIND": "127.0.0.1"]) == ["127.0.0.1"])
        #expect(LANAddresses.override(in: ["LISTENUP_PAIRING_BIND": "not-an-ip"]) == nil)
        #expect(LANAddresses.current(environment: ["LISTENUP_PAIRING_BIND": "127.0.0.1"]) == ["127.0.0.1"])
    }

    /// The system's own list (read, nothing sent): the loopback interface,
    /// its numeric address read whole from getnameinfo's buffer.
    @Test func theSystemsInterfacesIncludeLoopback() {
        let loopback = LANAddresses.systemInterfaces().filter(\.isLoopback)
        #expect(loopback.contains { $0.address == "127.0.0.1" && $0.isUp }, "\(loopback)")
    }
}
