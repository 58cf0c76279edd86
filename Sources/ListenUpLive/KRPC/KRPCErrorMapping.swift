import Foundation
import KRPCSession
import ListenUpCore
import ListenUpKRPC
import WebSocketTransport

/// kRPC failures in the terms the screens report (``ServerError``), so
/// a model reads a kRPC server's refusal as it reads a REST one. Messages
/// the user sees are written here (the kRPC server sends codes, not text).
enum KRPCErrorMapping {
    /// A domain failure (`AppResult.Failure`).
    static func error(_ error: AppError) -> ServerError {
        switch error.kind {
        case .authInvalidCredentials:
            return .server(status: 401, message: "")
        case .authRateLimited:
            return error.retryAfterSeconds.map { .rateLimitedFor(seconds: max(1, $0)) } ?? .rateLimited
        case .authSetupAlreadyComplete:
            return .server(status: 409, message: tr("This server already has an administrator. Sign in instead."))
        case .authEmailAlreadyExists:
            return .server(status: 409, message: tr("An account with this email exists already."))
        case .authPendingApproval:
            return .server(status: 403, message: tr("Your account is waiting for an administrator's approval."))
        case .authAccountDenied:
            return .server(status: 403, message: tr("An administrator has declined this account."))
        case .authPermissionDenied:
            return .server(status: 403, message: tr("Your account isn't allowed to do that on this server."))
        case .authWeakPassword:
            return .server(status: 400, message: tr("Choose a password of 8 to 1024 characters."))
        case .validationError:
            return .server(status: 400, message: error.validationMessage ?? "")
        case .authSetupRequired:
            return .server(status: 403, message: "")
        case .authRegistrationDisabled:
            return .server(status: 403, message: RegistrationMessages.closed)
        case .authSessionExpired, .authSessionNotFound, .authInvalidRefreshToken, .authServerInstanceChanged:
            return .sessionLapsed
        case .authResetRequestNotFound:
            return .passwordReset(.notFound)
        case .authResetNotApproved:
            return .passwordReset(.notApproved)
        case .authResetCodeIncorrect:
            return .passwordReset(.codeIncorrect(attemptsRemaining: max(0, error.attemptsRemaining ?? 0)))
        case .authResetAttemptsExhausted:
            return .passwordReset(.attemptsExhausted)
        case .syncNotFound, .shelfNotFound, .authRegistrationNotFound:
            return .server(status: 404, message: "")
        case .shelfForbidden:
            return .server(status: 403, message: tr("Only the shelf's owner can change it."))
        case .shelfInvalidName:
            return .server(status: 400, message: tr("Give the shelf a name of at most 200 characters."))
        case .inviteNotFound:
            return .invite(.notFound)
        case .inviteExpired:
            return .invite(.expired)
        case .inviteAlreadyClaimed:
            return .invite(.alreadyClaimed)
        case .inviteEmailInUse:
            return .invite(.emailInUse)
        case .inviteInvalidInput:
            return .server(status: 400, message: "")
        case .syncUnknownDomain, .syncTooManyIds, .syncUnsupportedMatch:
            return .protocolMismatch("\(error)")
        case .internalError:
            return .server(status: 500, message: "")
        case .unknown:
            return .serverNewer(error.type)
        }
    }

    /// A call or session failure.
    static func error(_ error: KRPCSessionError) -> ServerError {
        switch error {
        case .unauthorized: .server(status: 401, message: "")
        // A refused upgrade the server itself answered (404: no kRPC here,
        // as a REST v1 server says) is the server's answer, not the
        // network's; 5xx stays a transport failure (a proxy with no server).
        case .transport(.upgradeRejected(let status)) where (400..<500).contains(status): .server(status: status, message: "")
        case .transport(let transport): .transport(self.transport(transport))
        // The socket opened but the server said nothing: a hung server.
        case .handshakeFailed: .transport(.timedOut)
        case .timedOut: .transport(.timedOut)
        case .callException(let className, _): .protocolMismatch("the server could not run the call (\(className))")
        // The server broke the socket's rules (a message over the limit,
        // bad UTF-8, a protocol violation): the client closed it.
        case .closed(.socketClosed(.failed(let failure))) where isServerFault(failure): .protocolMismatch("\(failure)")
        case .endpointCancelled, .closed, .notOpen, .streamCancelled, .cancelledByServer: .transport(.unreachable("\(error)"))
        case .cancelled: .transport(.cancelled)
        case .invalidArguments(let detail), .undecodableResult(let detail): .protocolMismatch(detail)
        }
    }

    /// Whether a socket failure is the server breaking the rules rather than the network failing.
    static func isServerFault(_ failure: WebSocketTransportError) -> Bool {
        switch failure {
        case .messageTooLarge, .protocolViolation, .invalidUTF8: true
        default: false
        }
    }

    /// Any error a kRPC call can throw.
    static func error(_ error: any Error) -> ServerError {
        switch error {
        case let error as ServerError: error
        case let error as KRPCSessionError: self.error(error)
        case let error as AppError: self.error(error)
        case is CancellationError: .transport(.cancelled)
        default: .protocolMismatch("\(error)")
        }
    }

    /// A socket failure as the HTTP transport would report it.
    static func transport(_ error: WebSocketTransportError) -> TransportError {
        switch error {
        case .timedOut: .timedOut
        case .tlsFailed(let detail): .tlsFailure(detail)
        case .upgradeRejected(let status): .invalidResponse("HTTP \(status) at the WebSocket upgrade")
        default: .unreachable("\(error)")
        }
    }
}
