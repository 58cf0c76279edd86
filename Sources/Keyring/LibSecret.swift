import CLibSecret
import Foundation

/// libsecret's functions, from the library CLibSecret opens the first time
/// the keyring is used (on the keyring's queue), and the app's schema.
///
/// `@unchecked Sendable`: the table holds C function pointers and the
/// schema a pointer written once, when this is made, and then only read
/// (libsecret never changes a schema it is handed).
struct LibSecret: @unchecked Sendable {
    /// The functions, named without `secret_`.
    let call: ListenUpSecret
    /// `io.github.listenup.Desktop.Session`: one string attribute, `account`.
    let schema: OpaquePointer?

    /// Loaded once, on first use: libsecret, or why it cannot be had.
    static let shared: Result<LibSecret, KeyringError> = {
        var failure: UnsafePointer<CChar>?
        guard let table = listenup_secret(&failure) else {
            return .failure(.unavailable(failure.map { String(cString: $0) } ?? "libsecret could not be loaded"))
        }
        return .success(LibSecret(table.pointee))
    }()

    private init(_ functions: ListenUpSecret) {
        call = functions
        let types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)
        g_hash_table_insert(types, g_strdup("account"),
                            UnsafeMutableRawPointer(bitPattern: Int(LISTENUP_SECRET_SCHEMA_ATTRIBUTE_STRING)))
        schema = functions.schema_newv(Keyring.schemaName, Int32(LISTENUP_SECRET_SCHEMA_NONE), types)
        g_hash_table_unref(types)
    }
}
