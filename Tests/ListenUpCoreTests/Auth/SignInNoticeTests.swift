import Testing
@testable import ListenUpCore

@Suite("Why Sign in shows again")
struct SignInNoticeTests {
    @Test func eachReasonHasItsOwnSentenceAndCode() {
        let notices: [SignInNotice] = [.sessionEnded, .serverUpdated, .accountRemoved(reason: nil)]
        #expect(Set(notices.map(\.message)).count == 3)
        #expect(notices.map(\.code) == ["sessionEnded", "serverUpdated", "accountRemoved"])
        #expect(SignInNotice.serverUpdated.message == "This server was updated. Sign in again.")
    }

    /// Both servers' own reasons say what the translated sentence says;
    /// anything else is the server's words, on one short line.
    @Test func theServersKnownReasonsAreTranslatedOthersShownAsTheyCame() {
        let plain = SignInNotice.accountRemoved(reason: nil).message
        #expect(SignInNotice.accountRemoved(reason: "Your account was removed by an administrator.").message == plain)
        #expect(SignInNotice.accountRemoved(reason: "Account deleted by administrator").message == plain)
        #expect(SignInNotice.accountRemoved(reason: "  ").message == plain)
        let own = SignInNotice.accountRemoved(reason: "Moved to the family server\nsecond line").message
        #expect(own.contains("Moved to the family server") && !own.contains("second line"))
        let long = SignInNotice.accountRemoved(reason: String(repeating: "x", count: 5_000)).message
        #expect(long.count < 300)
    }
}
