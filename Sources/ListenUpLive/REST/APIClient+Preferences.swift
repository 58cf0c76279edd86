import ListenUpCore

/// Account preferences on REST v1: this app keeps them on the device.
///
/// The Go server has `GET`/`PATCH /api/v1/settings` (addendum §7), but no
/// default boost and no change push; the app keeps playback preferences
/// in GSettings on a REST v1 server, as it always has.
extension APIClient {
    /// False: on REST v1 the preferences stay on this device.
    public nonisolated var keepsAccountPreferences: Bool { false }

    /// Nil: this server keeps none.
    public func accountPreferences() async throws(ServerError) -> AccountPreferences? { nil }

    /// Nil: this server keeps none (nothing is sent).
    public func updateAccountPreferences(_ change: AccountPreferencesChange) async throws(ServerError) -> AccountPreferences? { nil }
}
