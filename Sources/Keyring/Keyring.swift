import CLibSecret
import Dispatch
import Foundation
import GObjectOwnership

/// Why the keyring could not do what was asked.
public enum KeyringError: Error, Equatable, Sendable {
    /// No Secret Service answered (no session bus, no keyring daemon), or it
    /// did not answer in time (a locked collection waiting for a prompt).
    case unavailable(String)
}

/// Secrets in the Secret Service (GNOME Keyring, KWallet, KeePassXC…)
/// through libsecret: the one Swift type that calls libsecret.
///
/// Each secret is a UTF-8 string stored under the schema
/// `io.github.listenup.Desktop.Session` with one attribute, `account`.
/// libsecret's calls block, so they run on a private serial queue, never on
/// the caller's thread, each cancelled after ``timeout``.
public struct Keyring: Sendable {
    /// The schema name the items are stored under.
    public static let schemaName = "io.github.listenup.Desktop.Session"
    /// The longest a call may take (a locked collection would wait for a
    /// password prompt that may never come).
    public var timeout: Duration

    public init(timeout: Duration = .seconds(5)) {
        self.timeout = timeout
    }

    /// Stores `secret` for `account`, replacing any earlier one.
    public func store(_ secret: String, account: String, label: String) async throws(KeyringError) {
        let stored = try await run { libsecret, cancellable, error in
            Self.withAttributes(account) { attributes in
                libsecret.call.password_storev_sync(libsecret.schema, attributes, nil, label, secret, cancellable, &error) != 0
            }
        }
        if !stored { throw .unavailable("the secret was not stored") }
    }

    /// The secret for `account`, or nil if none is stored.
    public func lookup(account: String) async throws(KeyringError) -> String? {
        try await run { libsecret, cancellable, error -> String? in
            Self.withAttributes(account) { attributes in
                guard let value = libsecret.call.password_lookupv_sync(libsecret.schema, attributes, cancellable, &error) else { return nil }
                defer { libsecret.call.password_free(value) }
                return String(cString: value)
            }
        }
    }

    /// Removes the secret for `account` (nothing happens if there is none).
    public func clear(account: String) async throws(KeyringError) {
        _ = try await run { libsecret, cancellable, error in
            Self.withAttributes(account) { attributes in
                libsecret.call.password_clearv_sync(libsecret.schema, attributes, cancellable, &error) != 0
            }
        }
    }

    // MARK: Plumbing

    /// Runs a blocking libsecret call on the keyring queue with a cancellable
    /// that fires after ``timeout``. A GError makes it fail; so does a
    /// libsecret that is not installed.
    private func run<T: Sendable>(_ call: @escaping @Sendable (LibSecret, UnsafeMutablePointer<GCancellable>?, inout UnsafeMutablePointer<GError>?) -> T) async throws(KeyringError) -> T {
        let timeout = timeout
        let outcome: Result<T, KeyringError> = await withCheckedContinuation { continuation in
            Self.queue.async {
                let libsecret: LibSecret
                switch LibSecret.shared {
                case .success(let loaded): libsecret = loaded
                case .failure(let error):
                    continuation.resume(returning: .failure(error))
                    return
                }
                // GCancellable is thread-safe; the timer holds a reference of
                // its own, so a timer that fires as the call ends cancels a
                // live object, never a freed one.
                let made: UnsafeMutablePointer<GCancellable>? = g_cancellable_new()
                let cancellable = OwnedReference(taking: made)
                let timer = DispatchWorkItem {
                    if let cancellable { g_cancellable_cancel(cancellable.pointer) }
                }
                let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: timer)
                var error: UnsafeMutablePointer<GError>?
                let value = call(libsecret, cancellable?.pointer, &error)
                timer.cancel()
                if let error {
                    let message = String(cString: error.pointee.message)
                    g_error_free(error)
                    continuation.resume(returning: .failure(.unavailable(message)))
                } else {
                    continuation.resume(returning: .success(value))
                }
            }
        }
        return try outcome.get()
    }

    private static let queue = DispatchQueue(label: "io.github.listenup.keyring")

    private static func withAttributes<T>(_ account: String, _ body: (OpaquePointer?) -> T) -> T {
        let attributes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)
        g_hash_table_insert(attributes, g_strdup("account"), g_strdup(account))
        defer { g_hash_table_unref(attributes) }
        return body(attributes)
    }
}
