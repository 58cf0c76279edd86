import Foundation
import Keyring
import ListenUpTestSupport
import Testing

/// libsecret against a real Secret Service (gnome-keyring, started by
/// build-aux/with-keyring for `make test`, which also sets
/// LISTENUP_REQUIRE_KEYRING=1: there a missing keyring fails the tests;
/// elsewhere they are reported as skipped).
@Suite("Keyring (real Secret Service)", .serialized)
struct KeyringTests {
    let keyring = Keyring()

    /// Returns when a Secret Service answers; else skips the test visibly,
    /// or fails it under LISTENUP_REQUIRE_KEYRING=1.
    func requireKeyring() async throws {
        var failure: (any Error)?
        do {
            _ = try await keyring.lookup(account: "probe-\(UUID().uuidString)")
        } catch {
            failure = error
        }
        try ServiceRequirement.check(failure == nil, requiredBy: "LISTENUP_REQUIRE_KEYRING",
                                     "no Secret Service: \(failure.map { "\($0)" } ?? "")")
    }

    @Test func storeLookupOverwriteClear() async throws {
        try await requireKeyring()
        let account = "test-\(UUID().uuidString)"
        let other = "test-\(UUID().uuidString)"
        let secret = #"{"token":"v4.local.ö\u0000x","n":1}"#
        try await keyring.store(secret, account: account, label: "ListenUp test")
        try await keyring.store("other", account: other, label: "ListenUp test")
        #expect(try await keyring.lookup(account: account) == secret)
        #expect(try await keyring.lookup(account: other) == "other", "accounts do not collide")
        try await keyring.store("replaced", account: account, label: "ListenUp test")
        #expect(try await keyring.lookup(account: account) == "replaced")
        try await keyring.clear(account: account)
        #expect(try await keyring.lookup(account: account) == nil)
        #expect(try await keyring.lookup(account: other) == "other")
        try await keyring.clear(account: other)
        try await keyring.clear(account: "never-stored-\(UUID().uuidString)")
    }
}
