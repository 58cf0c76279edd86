import Foundation
import ListenUpKRPC

/// `SocialService` of the demo's kRPC mode (upstream
/// `contract/.../api/SocialService.kt`, `server/.../api/SocialServiceImpl.kt`):
/// `currentlyListening()` from the sessions DemoPresence.swift keeps, and
/// `SyncControl.ActiveSessionsChanged` broadcast on every event stream when
/// a session starts or ends (addendum §2.3: a content-free nudge).
extension DemoKRPCService {
    /// `currentlyListening()`: the other users' rows (no arguments).
    func currentlyListening(_ call: DemoKRPCCall) throws -> DemoKRPCOutcome {
        let viewer = try call.userID
        let rows = service.state.withLock { $0.currentlyListening(viewer: viewer, now: Date()) }
        do { return .result(DemoKRPCWrap.success(try KRPCJSON.encode(rows))) } catch {
            throw DemoKRPCCallFailure(className: "kotlin.IllegalStateException", message: "\(error)", echoesServiceID: true)
        }
    }

    /// Sends `SyncControl.ActiveSessionsChanged` to every event stream if a
    /// session started or ended since the last time this was asked.
    func announcePresenceIfChanged() {
        let revision = service.state.withLock { $0.presenceRevision }
        let changed = announcedPresence.withLock { announced in
            defer { announced = revision }
            return announced != revision
        }
        guard changed else { return }
        publishControlToEveryone(DemoKRPCWrap.activeSessionsChangedFrame)
    }
}

extension DemoKRPCWrap {
    /// The `control` frame carrying `SyncControl.ActiveSessionsChanged` (no payload).
    static let activeSessionsChangedFrame = frame(domain: SyncDomain.control.rawValue, revision: nil,
                                                  json: "{\"type\":\"SyncControl.ActiveSessionsChanged\"}")
}
