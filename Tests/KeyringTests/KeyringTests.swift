import Foundation
import Keyring
import Testing

/// libsecret against a real Secret Service (gnome-keyring, started by
/// build-aux/with-keyring for `make test`).
@Suite("Keyring (real Secret Service)", .serialized)
struct KeyringTests {
    let keyring = Keyring()

    /// Whether a Secret Service answers; fails the test when one is required.
    func reachable() async -> Bool {
        do {
            _ = try await keyring.lookup(account: "probe-\(UUID().uuidString)")
            return true
        } catch {
            if ProcessInfo.processInfo.environment["LISTENUP_REQUIRE_KEYRING"] == "1" {
                Issue.record("No Secret Service, but LISTENUP_REQUIRE_KEYRING=1: \(error)")
            }
            return false
        }
    }

    @Test func storeLookupOverwriteClear() async throws {
        guard await reachable() else { return }
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
