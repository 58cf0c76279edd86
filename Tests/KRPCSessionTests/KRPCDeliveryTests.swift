import KRPCSession
import ListenUpKRPC
import Testing
import WebSocketTransport

/// Which failures let a call be sent again: the policy of each method, and
/// the machine's own word on whether a failed call ever left.
@Suite("KRPCDelivery: sending a call again")
struct KRPCDeliveryTests {
    @Test func callsThatMustNotRunTwiceAreAtMostOnceAndReadsRetryOnce() {
        for method in [KRPCMethod.login, .setupRoot, .register, .refreshSession] {
            #expect(method.delivery == .atMostOnce, "\(method)")
        }
        for method in [KRPCMethod.getServerInfo, .pullDomain, .pullByIds, .digest, .getBook, .getRecentlyListened, .currentUser,
                       .listDomains, .prepare, .getPosition, .recordListeningEvent, .recordPosition, .logout] {
            #expect(method.delivery == .retryOnce, "\(method)")
        }
        // A method named later without a policy (updateMyPreferences, say) is safe.
        #expect(KRPCMethod(service: KRPCServiceType(listenUp: "UserPreferencesService"), name: "updateMyPreferences").delivery == .atMostOnce)
    }

    @Test func anAtMostOnceCallIsNotSentAgainWhenItMayHaveRun() {
        let mayHaveRun: [KRPCSessionError] = [
            .timedOut(method: "login"), .closed(.socketClosed(.failed(.connectionLost))), .closed(.closedByClient), .endpointCancelled,
            .cancelledByServer,
        ]
        for error in mayHaveRun {
            #expect(KRPCDelivery.retryOnce.allowsResend(after: error), "\(error)")
            #expect(!KRPCDelivery.atMostOnce.allowsResend(after: error), "\(error)")
        }
    }

    @Test func anAtMostOnceCallIsSentAgainWhenItNeverLeft() {
        for error in [KRPCSessionError.notOpen, .handshakeFailed, .transport(.timedOut)] {
            #expect(error.provesCallNeverSent, "\(error)")
            #expect(KRPCDelivery.atMostOnce.allowsResend(after: error), "\(error)")
            #expect(KRPCDelivery.retryOnce.allowsResend(after: error), "\(error)")
        }
    }

    @Test func neitherIsSentAgainAfterAFailureAReconnectCannotMend() {
        for error in [KRPCSessionError.callException(className: "x", message: "y"), .unauthorized, .cancelled, .invalidArguments("nan"),
                      .undecodableResult("?")] {
            #expect(!KRPCDelivery.retryOnce.allowsResend(after: error), "\(error)")
            #expect(!KRPCDelivery.atMostOnce.allowsResend(after: error), "\(error)")
        }
    }

    /// The table in ``KRPCSessionError/provesCallNeverSent`` follows the
    /// machine: the errors it calls "never sent" come with no `CallData`.
    @Test func theMachineSendsNothingForTheFailuresCalledNeverSent() {
        // Closed before the call: notOpen, nothing sent.
        var closed = KRPCSessionMachine.opened()
        _ = closed.closeRequested()
        let late = closed.start(.login)
        #expect(late.actions == [.failCall(late.handle, .notOpen)])

        // Queued behind a handshake that never came: handshakeFailed, nothing sent.
        var handshaking = KRPCSessionMachine()
        _ = handshaking.socketOpened(now: .zero)
        let queued = handshaking.start(.login)
        #expect(queued.actions.isEmpty)
        let ended = handshaking.timeAdvanced(to: .seconds(60))
        #expect(ended.contains(.failCall(queued.handle, .handshakeFailed)))
        #expect(sentTexts(ended).isEmpty)

        // Sent, then the socket ended: closed, and the CallData had gone.
        var open = KRPCSessionMachine.opened()
        let sent = open.start(.login)
        #expect(sentTexts(sent.actions).count == 1)
        let dropped = open.socketClosed(.failed(.connectionLost))
        guard case .failCall(_, let error)? = dropped.first else {
            Issue.record("the pending call did not fail")
            return
        }
        #expect(!error.provesCallNeverSent)
    }
}
