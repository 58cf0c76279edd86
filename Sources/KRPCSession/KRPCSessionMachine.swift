import ListenUpKRPC

/// The rules of one kRPC session on one WebSocket (§2.3–§2.8), with no I/O
/// and no clock: inputs are method calls, time comes in as an argument
/// (`now`, the time since any fixed origin of a monotonic clock), and every
/// method returns the ``Action``s the shell (``KRPCSession``) must carry out,
/// in order.
///
/// | State | Input | Next state | Actions |
/// |---|---|---|---|
/// | connecting | ``socketOpened(now:)`` | handshaking | send the Handshake |
/// | handshaking | server Handshake | open | completeHandshake, send each queued call |
/// | handshaking | deadline passed | closed(handshakeTimedOut) | fail queued calls (handshakeFailed), closeSocket |
/// | connecting, handshaking | ``startCall(service:method:arguments:kind:now:)`` | same | none: queued |
/// | open | ``startCall(service:method:arguments:kind:now:)`` | open | send `CallData` (`callId` = `"<connectionId>:<method>:<counter>"`) |
/// | open | `CallSuccess` / `CallException` | open | resumeCall / failCall (callException) |
/// | open | `StreamMessage` / `StreamFinished` / `StreamCancel` | open | yieldStream / finishStream / failStream (streamCancelled) |
/// | open | ``streamDropped(_:)`` | open | send the REQUEST cancellation; later frames for it are dropped |
/// | open | ``callCancelled(_:)`` | open | failCall (cancelled), send the REQUEST cancellation |
/// | open | ``timeAdvanced(to:)`` past a unary deadline | open | failCall (timedOut), send the REQUEST cancellation |
/// | any but closed | ENDPOINT cancellation | closed(endpointCancelled) | fail everything (endpointCancelled), closeSocket |
/// | any but closed | ``closeRequested()`` | closed(closedByClient) | fail everything, send ENDPOINT (if open), closeSocket |
/// | any but closed | ``socketClosed(_:)`` | closed(socketClosed) | fail everything (closed) |
/// | any | `Failure`, unknown type, undecodable text, stray frame | same | log |
/// | any | window update | same | none |
/// | closed | ``startCall(service:method:arguments:kind:now:)`` | closed | fail it (notOpen) |
///
/// Every ending emits ``Action/sessionEnded(_:)`` last, exactly once.
///
/// A value type, not thread-safe by itself: its owner serialises the calls
/// (``KRPCSession`` is an actor).
public struct KRPCSessionMachine: Sendable {
    /// Where the session is.
    public enum State: Sendable, Equatable {
        /// The socket is not open yet; calls are queued.
        case connecting
        /// The client's Handshake is sent; the server's must arrive before `deadline`.
        case handshaking(deadline: Duration)
        /// Calls are sent as they start. `connectionId` is the server's (1).
        case open(connectionId: Int64?)
        /// Over; nothing more is sent.
        case closed(KRPCSessionCloseReason)
    }

    /// A call or stream the machine knows: queued (no `callId` yet) or in flight.
    struct Call: Sendable {
        let handle: KRPCCallHandle
        let serviceType: String
        let method: String
        let arguments: String
        let isStream: Bool
        /// When a unary call times out; nil for streams.
        let deadline: Duration?
        /// Set when the `CallData` is sent.
        var callId: String?
    }

    /// The session's state.
    public internal(set) var state: State = .connecting
    /// The timeouts in force.
    public let configuration: KRPCSessionConfiguration

    var calls: [KRPCCallHandle: Call] = [:]
    var handlesByCallId: [String: KRPCCallHandle] = [:]
    /// Calls started before the handshake completed, in start order.
    var queued: [KRPCCallHandle] = []
    /// callIds given up on (dropped, timed out, cancelled), oldest first,
    /// at most ``abandonedMemory``: their late frames are dropped quietly.
    var abandoned: [String] = []
    var abandonedSet: Set<String> = []
    var counter: UInt64 = 0

    /// How many abandoned callIds are remembered for quiet dropping.
    static let abandonedMemory = 256

    /// A machine in ``State/connecting``.
    /// - Parameter configuration: the handshake and call timeouts.
    public init(configuration: KRPCSessionConfiguration = KRPCSessionConfiguration()) {
        self.configuration = configuration
    }

    /// Calls and streams started and not yet over (queued ones included).
    public var pendingCallCount: Int { calls.count }

    /// The earliest moment ``timeAdvanced(to:)`` has something to do, or nil.
    public var nextDeadline: Duration? {
        var earliest: Duration?
        if case .handshaking(let deadline) = state { earliest = deadline }
        for call in calls.values {
            if let deadline = call.deadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        return earliest
    }

    /// The socket is open: send the Handshake (§2.3) and start its deadline.
    /// - Parameter now: the current time.
    /// - Returns: the Handshake to send, or nothing if not ``State/connecting``.
    public mutating func socketOpened(now: Duration) -> [Action] {
        guard case .connecting = state else { return [] }
        state = .handshaking(deadline: now + configuration.handshakeTimeout)
        return [.send(KRPCMessage.handshake.encoded())]
    }

    /// Starts a call or stream: sent at once when open, queued before, failed
    /// with ``KRPCSessionError/notOpen`` once closed.
    /// - Parameters:
    ///   - service: the `serviceType` fq-name.
    ///   - method: the Kotlin method name.
    ///   - arguments: the encoded argument object (`"{}"` for none).
    ///   - kind: unary (with its timeout) or stream.
    ///   - now: the current time (a unary call's deadline counts from here).
    /// - Returns: the call's handle, and the actions (the `CallData` to send, or its failure).
    public mutating func startCall(service: String, method: String, arguments: String, kind: CallKind,
                                   now: Duration) -> (handle: KRPCCallHandle, actions: [Action]) {
        counter += 1
        let handle = KRPCCallHandle(rawValue: counter)
        var deadline: Duration?
        if case .unary(let timeout) = kind { deadline = now + (timeout ?? configuration.callTimeout) }
        let call = Call(handle: handle, serviceType: service, method: method, arguments: arguments,
                        isStream: kind == .stream, deadline: deadline)
        switch state {
        case .closed:
            return (handle, [call.isStream ? .failStream(handle, .notOpen) : .failCall(handle, .notOpen)])
        case .connecting, .handshaking:
            calls[handle] = call
            queued.append(handle)
            return (handle, [])
        case .open(let connectionId):
            calls[handle] = call
            return (handle, [send(handle, connectionId: connectionId)])
        }
    }

    /// Gives the queued or new call its `callId` and builds its `CallData`.
    mutating func send(_ handle: KRPCCallHandle, connectionId: Int64?) -> Action {
        guard var call = calls[handle] else { return .log(.unknownCall(callId: handle.description)) }
        let callId = "\(connectionId ?? 0):\(call.method):\(handle.rawValue)"
        call.callId = callId
        calls[handle] = call
        handlesByCallId[callId] = handle
        return .send(KRPCMessage.call(callId: callId, serviceType: call.serviceType, method: call.method,
                                      arguments: call.arguments, connectionId: connectionId).encoded())
    }

    /// The server's Handshake arrived during the handshake: open, flush the queue.
    mutating func completeHandshake(_ handshake: KRPCHandshake) -> [Action] {
        state = .open(connectionId: handshake.connectionId)
        var actions: [Action] = [.completeHandshake(connectionId: handshake.connectionId)]
        for handle in queued {
            actions.append(send(handle, connectionId: handshake.connectionId))
        }
        queued.removeAll()
        return actions
    }
}
