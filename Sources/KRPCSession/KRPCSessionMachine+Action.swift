import ListenUpKRPC

/// The session's own name for one call or stream, given by
/// ``KRPCSessionMachine/startCall(service:method:arguments:kind:now:)``
/// before the kRPC `callId` exists (a call queued behind the handshake has
/// none yet). Its number is the counter in the call's `callId`.
///
/// A value type; any thread.
public struct KRPCCallHandle: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The counter: 1 for the session's first call, then 2, 3, …
    public let rawValue: UInt64

    /// Wraps a counter value.
    /// - Parameter rawValue: the counter.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Orders by counter, i.e. by start.
    public static func < (lhs: KRPCCallHandle, rhs: KRPCCallHandle) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// `#<counter>`, for logs.
    public var description: String { "#\(rawValue)" }
}

extension KRPCSessionMachine {
    /// Whether a call is answered once or streams (§2.4, §2.5).
    public enum CallKind: Sendable, Equatable {
        /// A `suspend fun` answered by one `CallSuccess` or `CallException`,
        /// failed after `timeout` (nil: the configuration's call timeout).
        case unary(timeout: Duration?)
        /// A `Flow` answered by `StreamMessage`s ending in `StreamFinished`,
        /// `StreamCancel` or a `CallException`; no timeout.
        case stream
    }

    /// What the shell must do, in order, after an input.
    public enum Action: Sendable, Equatable {
        /// Send this text frame (one kRPC message, already encoded).
        case send(String)
        /// The server answered the Handshake: the session is open.
        case completeHandshake(connectionId: Int64?)
        /// Resume a unary call with its `CallSuccess` `data` (the `AppResult`
        /// JSON, success or domain failure alike).
        case resumeCall(KRPCCallHandle, data: String)
        /// Fail a unary call.
        case failCall(KRPCCallHandle, KRPCSessionError)
        /// Hand one `StreamMessage` `data` (an `RpcEvent` JSON) to a stream's consumer.
        case yieldStream(KRPCCallHandle, data: String)
        /// Finish a stream normally (`StreamFinished`).
        case finishStream(KRPCCallHandle)
        /// Finish a stream with an error.
        case failStream(KRPCCallHandle, KRPCSessionError)
        /// Log something the session ignored.
        case log(Diagnostic)
        /// Close the WebSocket (after the frames sent before this action).
        case closeSocket
        /// The session is over; nothing more will happen. Always the last action.
        case sessionEnded(KRPCSessionCloseReason)
    }

    /// A frame or event the session ignored, for the log.
    public enum Diagnostic: Sendable, Equatable {
        /// The server sent `RPCProtocolMessage.Failure` (it could not handle
        /// one of our protocol or generic messages, §2.6).
        case protocolFailure(errorMessage: String)
        /// A kRPC message `type` this build does not know.
        case unknownMessage(type: String)
        /// A text frame that is not a kRPC message.
        case undecodableFrame(KRPCDecodingError)
        /// A known message that makes no sense here (a second Handshake, a
        /// call-level frame during the handshake, `CallData` from the server,
        /// a `StreamMessage` for a unary call…). `kind` names the message.
        case unexpectedMessage(kind: String, callId: String?)
        /// A call-level frame for a callId the session never used.
        case unknownCall(callId: String)
        /// A frame for a call the client gave up on (dropped, timed out,
        /// cancelled): expected, dropped.
        case lateFrame(callId: String)
        /// A generic message that is neither a cancellation the session acts
        /// on nor a window update; `detail` says what it carried.
        case ignoredGeneric(detail: String)
    }
}

extension KRPCMessage {
    /// The message's short kind for logs, e.g. `CallSuccess`.
    var kindName: String {
        switch self {
        case .protocolHandshake: "Handshake"
        case .protocolFailure: "Failure"
        case .generic: "GenericMessage"
        case .callData: "CallData"
        case .callSuccess: "CallSuccess"
        case .callException: "CallException"
        case .streamMessage: "StreamMessage"
        case .streamFinished: "StreamFinished"
        case .streamCancel: "StreamCancel"
        case .unknown(let type): type
        }
    }
}
