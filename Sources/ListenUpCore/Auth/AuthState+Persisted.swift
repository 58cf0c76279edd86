extension AuthState {
    /// The state the app starts in, from persisted settings alone (no network).
    ///
    /// No server saved: the user must choose one. A saved server that still
    /// parses is to be checked again (`checkingServer`); one that no longer
    /// parses is treated as no server at all.
    public static func restored(from settings: AppSettings) -> AuthState {
        guard let saved = settings.serverURL, case .success(let address) = ServerAddress.parse(saved) else {
            return .needsServer
        }
        return .checkingServer(address)
    }
}
