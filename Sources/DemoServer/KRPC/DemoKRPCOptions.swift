import Foundation

/// The wire protocol a ``DemoServer`` speaks.
public enum DemoProtocol: String, Sendable, CaseIterable {
    /// The Go server's REST v1 (`/api/v1/…` JSON envelopes, SSE events).
    case rest
    /// The v0.9 Kotlin server's kRPC over WebSocket (`/api/rpc/public`,
    /// `/api/rpc/authed`) plus its plain-HTTP blob routes.
    case krpc
}

extension DemoServer {
    /// How the kRPC mode behaves. The defaults are the real v0.9 server's;
    /// tests shorten the intervals.
    public struct KRPCOptions: Sendable {
        /// Seconds between the server's WebSocket pings (Ktor `pingPeriod`).
        public var pingInterval: TimeInterval = 15
        /// Seconds to wait for the matching pong before closing with 1011 "Ping timeout".
        public var pingTimeout: TimeInterval = 15
        /// Seconds between `SyncControl.Heartbeat` frames on `observeEvents`.
        public var heartbeatInterval: TimeInterval = 25
        /// Seconds between the session-liveness checks of open streams: a
        /// revoked or expired session ends them with `AuthError.SessionExpired`.
        public var sessionCheckInterval: TimeInterval = 30
        /// How many recent writes `observeEvents` can replay (the change
        /// bus's replay buffer); a `sinceRevision` below the oldest gets `CursorStale`.
        public var eventRetention = 256
        /// Seconds a refresh token lives; each rotation starts it again.
        public var refreshTokenLifetime: TimeInterval = 30 * 24 * 3600
        /// Seconds after a rotation during which the rotated-away refresh
        /// token re-rotates instead of counting as a replay.
        public var refreshReuseGrace: TimeInterval = 30 * 60
        /// Seconds a signed audio or cover-cast URL from `prepare` stays valid.
        public var signedURLLifetime: TimeInterval = 12 * 3600
        /// `login` calls per minute and client address before `RateLimited`.
        public var loginAttemptsPerMinute = 10
        /// `refreshSession` calls per minute and client address before `RateLimited`.
        public var refreshAttemptsPerMinute = 30
        /// Seconds between the polls of `observePasswordResetStatus` (each
        /// poll sends the status, repeats included).
        public var passwordResetPollInterval: TimeInterval = 3

        /// The real server's values.
        public init() {}
    }
}
