import KRPCSession
import ListenUpKRPC
import Testing

typealias Action = KRPCSessionMachine.Action

/// The contract's call handles: the numbering of its examples.
enum ContractCall {
    static let getServerInfo = KRPCCallHandle(rawValue: 1)
    static let login = KRPCCallHandle(rawValue: 2)
    static let getInfo = KRPCCallHandle(rawValue: 3)
    static let observeEvents = KRPCCallHandle(rawValue: 4)
}

extension KRPCSessionMachine {
    /// A machine past its handshake (connectionId 1), at time zero.
    static func opened(_ configuration: KRPCSessionConfiguration = KRPCSessionConfiguration()) -> KRPCSessionMachine {
        var machine = KRPCSessionMachine(configuration: configuration)
        _ = machine.socketOpened(now: .zero)
        _ = machine.receive(text: ContractFrame.handshakeServerReply)
        return machine
    }

    /// An open machine with the contract's four calls in flight:
    /// getServerInfo (1), login (2), getInfo (3) and the stream observeEvents (4).
    static func withContractCalls(_ configuration: KRPCSessionConfiguration = KRPCSessionConfiguration()) throws -> KRPCSessionMachine {
        var machine = opened(configuration)
        for (method, arguments) in try contractCalls {
            _ = machine.startCall(service: method.service.rawValue, method: method.name, arguments: arguments,
                                  kind: method.isStream ? .stream : .unary(timeout: nil), now: .zero)
        }
        return machine
    }

    /// Starts a call of a known method.
    mutating func start(_ method: KRPCMethod, arguments: String = "{}", timeout: Duration? = nil,
                        now: Duration = .zero) -> (handle: KRPCCallHandle, actions: [Action]) {
        startCall(service: method.service.rawValue, method: method.name, arguments: arguments,
                  kind: method.isStream ? .stream : .unary(timeout: timeout), now: now)
    }
}

/// The contract's four calls and their arguments, in order.
var contractCalls: [(KRPCMethod, String)] {
    get throws {
        [(.getServerInfo, "{}"), (.login, try callData(ContractFrame.loginCall).data),
         (KRPCMethod(service: .instanceService, name: "getInfo"), "{}"),
         (.observeEvents, try callData(ContractFrame.observeEventsCall).data)]
    }
}

/// The `CallData` in a frame.
func callData(_ text: String) throws -> KRPCCallData {
    guard case .callData(let call) = try KRPCMessage(decoding: text) else { throw UnexpectedFrame(text: text) }
    return call
}

/// The `data` of a `CallSuccess` or `StreamMessage` frame.
func innerData(_ text: String) throws -> String {
    switch try KRPCMessage(decoding: text) {
    case .callSuccess(let success): return success.data
    case .streamMessage(let element): return element.data
    default: throw UnexpectedFrame(text: text)
    }
}

/// A frame that is not what a test expected.
struct UnexpectedFrame: Error, CustomStringConvertible {
    var text: String
    var description: String { "unexpected frame: \(text.prefix(200))" }
}

/// The text of every `send` action, in order.
func sentTexts(_ actions: [Action]) -> [String] {
    actions.compactMap { if case .send(let text) = $0 { return text } else { return nil } }
}

/// Whether the text is the frame `expected` as a kRPC message (key order aside).
func sameMessage(_ text: String, _ expected: String) -> Bool {
    guard let actual = try? KRPCMessage(decoding: text), let wanted = try? KRPCMessage(decoding: expected) else { return false }
    return actual == wanted
}
