/// Whether a unary call may be sent a second time, on a new socket, after
/// its first attempt failed without an answer.
///
/// A failure after the `CallData` was written (our own timeout, the socket
/// dropped, the server ending the session) leaves the outcome unknown: the
/// server may have run the call and only its answer was lost. Sending it
/// again is harmless for a read or for a write the server keys by an id the
/// client chose, and wrong for a call that must not run twice: a second
/// `login` is a second session, a second `setupRoot` answers
/// `SetupAlreadyComplete` although the first one worked.
///
/// Follows the official client's rule (`RpcChannel.call(idempotent:)` and
/// `RpcProxyCache.call` in `app/sharedLogic/.../data/remote/`): only calls
/// declared safe to re-fire are sent again after a lost answer; every other
/// call is sent again only when the failure proves the frame never left.
/// Which failures prove that is decided in `KRPCSession`
/// (`KRPCDelivery.allowsResend(after:)`).
///
/// A value type; any thread.
public enum KRPCDelivery: Sendable, Hashable, CustomStringConvertible {
    /// Safe to run twice (reads; writes keyed by an id the client chose,
    /// or by a time the client chose, that the server applies once): one
    /// more send on a new socket after any failure that a reconnect may mend.
    case retryOnce
    /// Must not run twice: sent once. After a failure that leaves the
    /// outcome unknown the caller gets the error; sent again only when the
    /// failure proves the call never left this client. The default of every
    /// method, so a method added later is safe until someone declares otherwise.
    case atMostOnce

    /// `retryOnce` or `atMostOnce`, for logs.
    public var description: String {
        switch self {
        case .retryOnce: "retryOnce"
        case .atMostOnce: "atMostOnce"
        }
    }
}
