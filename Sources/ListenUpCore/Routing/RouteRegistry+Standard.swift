extension RouteRegistry {
    /// The app's screens. Adding a screen adds one line here.
    public static let standard = RouteRegistry([
        .loading,
        .serverSetup,
        .adminSetup,
        .login,
        .invite,
        .createAccount,
        .awaitingApproval,
        .registrationDeclined,
        .resetPassword,
        .library,
        .pairing,
        .player,
    ])
}
