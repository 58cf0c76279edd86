import Foundation
import JSONToolkit
import ListenUpKRPC

/// Why a call cannot run: answered with a `CallException` (§2.4.4), shaped
/// like the native server's (Kotlin class names, empty stack trace).
///
/// Failures while the arguments are decoded (unknown method, undecodable
/// arguments, an `init{require}` violation) omit the call's `serviceId`;
/// failures inside the request job (an absent non-null argument, a Flow
/// called without the marker) echo it (§6.2).
struct DemoKRPCCallFailure: Error, Sendable {
    var className: String
    var message: String
    var echoesServiceID: Bool

    /// The exception as it crosses the wire.
    var exception: KRPCSerializedException {
        KRPCSerializedException(toStringMessage: "\(className): \(message)", message: message, className: className)
    }

    /// The service has no such method.
    static func unknownMethod(serviceType: String, method: String) -> DemoKRPCCallFailure {
        DemoKRPCCallFailure(className: "kotlin.IllegalStateException",
                            message: "Service \(serviceType) has no method '\(method)'", echoesServiceID: false)
    }

    /// `callType` is not `Method`.
    static func unsupportedCallType(_ callType: String) -> DemoKRPCCallFailure {
        DemoKRPCCallFailure(className: "kotlin.IllegalStateException", message: "Unsupported call type: \(callType)",
                            echoesServiceID: false)
    }

    /// The arguments are not JSON of the right shape.
    static func undecodable(_ detail: String) -> DemoKRPCCallFailure {
        DemoKRPCCallFailure(className: "kotlinx.serialization.json.internal.JsonDecodingException", message: detail,
                            echoesServiceID: false)
    }

    /// A required key of an argument object is missing.
    static func missingField(_ field: String, of argument: String) -> DemoKRPCCallFailure {
        DemoKRPCCallFailure(className: "kotlinx.serialization.MissingFieldException",
                            message: "Field '\(field)' is required for argument '\(argument)', but it was missing",
                            echoesServiceID: false)
    }

    /// An `init { require(…) }` of a request type failed while decoding.
    static let failedRequirement = DemoKRPCCallFailure(className: "kotlin.IllegalArgumentException",
                                                       message: "Failed requirement.", echoesServiceID: false)

    /// A non-null parameter was absent: the invokator's cast of `null` (§2.4.1).
    static func absentArgument(_ name: String) -> DemoKRPCCallFailure {
        DemoKRPCCallFailure(className: "kotlin.NullPointerException",
                            message: "null cannot be cast to non-null type (argument '\(name)' was absent)", echoesServiceID: true)
    }

    /// A Flow method called without the `-32763` marker (§2.5).
    static func flowWithoutMarker(serviceType: String, method: String) -> DemoKRPCCallFailure {
        DemoKRPCCallFailure(className: "kotlin.IllegalStateException",
                            message: "Server flow returned from non-suspend function but marked so by a client: \(serviceType)::\(method)",
                            echoesServiceID: true)
    }
}

/// What a method answers.
enum DemoKRPCOutcome {
    /// A unary method's `AppResult`, as JSON text: a `CallSuccess`.
    case result(String)
    /// `observeEvents`: a stream from `sinceRevision`.
    case eventStream(sinceRevision: Int64?)
    /// `observeRegistrationStatus`: a watch of `userID` (or, past the
    /// address's bucket, one `RateLimited` error).
    case registrationWatch(userID: String, rateLimited: Bool)
    /// `observeRegistrationPolicy`: the policy and its changes (or, past
    /// the address's bucket, one `RateLimited` error).
    case registrationPolicyWatch(rateLimited: Bool)
    /// `observePasswordResetStatus`: a poll of `ticketID` every few seconds.
    case passwordResetWatch(ticketID: String)
}

/// One call as a method sees it: the decoded argument object, the socket's
/// principal and the client's address.
struct DemoKRPCCall {
    var arguments: [String: JSONValue]
    var principal: DemoKRPCPrincipal?
    var remoteHost: String

    /// The caller on the authed mount.
    var userID: String {
        get throws {
            guard let principal else { throw DemoKRPCCallFailure(className: "kotlin.IllegalStateException",
                                                                 message: "no principal", echoesServiceID: true) }
            return principal.userID
        }
    }

    /// A non-null parameter: nil when absent (unwrap it with ``present(_:_:)``
    /// once every argument is decoded, as the invokator does).
    /// - Throws: a decoding failure when it is `null`, of the wrong shape, or
    ///   an object missing one of `requiredKeys`.
    func decode<T: Decodable>(_ name: String, as type: T.Type, requiredKeys: [String] = []) throws -> T? {
        guard let value = arguments[name] else { return nil }
        if value.isNull { throw DemoKRPCCallFailure.undecodable("Expected a value for '\(name)', but had 'null' instead") }
        return try convert(value, name: name, as: type, requiredKeys: requiredKeys)
    }

    /// A nullable parameter: nil when absent or `null`.
    /// - Throws: a decoding failure when present and of the wrong shape.
    func decodeNullable<T: Decodable>(_ name: String, as type: T.Type, requiredKeys: [String] = []) throws -> T? {
        guard let value = arguments[name], !value.isNull else { return nil }
        return try convert(value, name: name, as: type, requiredKeys: requiredKeys)
    }

    /// A decoded non-null argument.
    /// - Throws: ``DemoKRPCCallFailure/absentArgument(_:)`` when it was absent.
    func present<T>(_ value: T?, _ name: String) throws -> T {
        guard let value else { throw DemoKRPCCallFailure.absentArgument(name) }
        return value
    }

    /// A `BookId`: `init { require(value.isNotBlank()) }`.
    /// - Throws: ``DemoKRPCCallFailure/failedRequirement`` for a blank id.
    func requireNotBlank(_ id: String) throws {
        if RequestLimits.isBlank(id) { throw DemoKRPCCallFailure.failedRequirement }
    }

    private func convert<T: Decodable>(_ value: JSONValue, name: String, as type: T.Type, requiredKeys: [String]) throws -> T {
        if let object = value.objectValue, let missing = requiredKeys.first(where: { object[$0] == nil }) {
            throw DemoKRPCCallFailure.missingField(missing, of: name)
        }
        do {
            let data = try JSONEncoder().encode(value)
            return try KRPCJSON.decode(T.self, from: data)
        } catch {
            throw DemoKRPCCallFailure.undecodable("Cannot decode argument '\(name)': \(error)")
        }
    }
}
