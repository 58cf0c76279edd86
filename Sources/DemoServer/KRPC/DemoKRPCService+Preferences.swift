import Foundation
import ListenUpKRPC

/// `UserPreferencesService` (addendum §1.7), as today's server runs it
/// (`server/.../api/UserPreferencesServiceImpl.kt`): the caller's stored
/// row or the defaults (1.0, 30, 10, null, false, 0); an update merges the
/// fields set onto it (PATCH), clamps them (speed 0.5…4.0, skips 5…300,
/// sleep 1…480, boost 0…12), keeps the result and answers with it, then
/// sends `SyncControl.PreferencesChanged` to that user's event streams
/// only (`bus.publishControl(…, userId)`).
extension DemoKRPCService {
    /// `getMyPreferences()`.
    func getMyPreferences(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let userID = try call.userID
        return .result(DemoKRPCWrap.success(try Self.json(storedPreferences(userID: userID))))
    }

    /// `updateMyPreferences(request)`.
    func updateMyPreferences(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let request = try call.present(call.decode("request", as: UpdateUserPreferencesRequest.self), "request")
        let userID = try call.userID
        return .result(DemoKRPCWrap.success(try Self.json(updatePreferences(userID: userID, request))))
    }

    /// The user's preferences, or the server's defaults.
    func storedPreferences(userID: String) -> UserPreferencesDto {
        preferences.withLock { $0[userID] } ?? .serverDefaults
    }

    /// Merges, clamps and keeps `request`, then nudges the user's streams.
    @discardableResult
    func updatePreferences(userID: String, _ request: UpdateUserPreferencesRequest) -> UserPreferencesDto {
        let merged = preferences.withLock { stored in
            let next = request.merged(onto: stored[userID] ?? .serverDefaults)
            stored[userID] = next
            return next
        }
        publishControl(DemoKRPCWrap.preferencesChangedFrame, to: userID)
        return merged
    }

    private static func json(_ preferences: UserPreferencesDto) throws -> String {
        do { return try KRPCJSON.encode(preferences) } catch {
            throw DemoKRPCCallFailure(className: "kotlin.IllegalStateException", message: "\(error)", echoesServiceID: true)
        }
    }
}

extension DemoKRPCWrap {
    /// The `control` frame carrying `SyncControl.PreferencesChanged` (no payload).
    static let preferencesChangedFrame = frame(domain: SyncDomain.control.rawValue, revision: nil,
                                               json: "{\"type\":\"SyncControl.PreferencesChanged\"}")
}
