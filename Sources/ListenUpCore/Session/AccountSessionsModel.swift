import Foundation
import Logging
import Observation

/// Where the account is signed in (Preferences → Devices; headless
/// `sessions`): the server's list of the account's sessions, with *Sign
/// Out* for another device and *Sign Out Everywhere Else*.
///
/// Read when asked (``refresh()``), and again after each change made here.
/// Today's server has no push for sessions (its `ActiveSessionsChanged`
/// nudge is about listening presence, `ActiveSessionRepository.kt`), so
/// while someone looks at the list (``follow()``: the Preferences window,
/// the headless `sessions` action) it is read again every
/// ``followInterval``: another device signing in or out shows within it. A server that lists no sessions (REST v1) says
/// so once: ``isSupported`` turns false and the page hides the list.
/// *Sign Out Everywhere Else* ends every other session one by one
/// (`revokeSession`) rather than `logoutAll`, which would end this one too
/// and need the password again (addendum §6.5).
@MainActor @Observable
public final class AccountSessionsModel {
    /// The sessions, newest use first, this device's marked; nil until read.
    public private(set) var sessions: [AccountSession]?
    /// False once the server said it lists no sessions.
    public private(set) var isSupported = true
    /// A read or a change under way.
    public private(set) var isBusy = false
    /// Why the last read or change failed (a sentence for the user); nil after a success.
    public private(set) var failure: ServerError?
    /// Bumped by every read that finished (the headless front prints one line each).
    public private(set) var reads = 0

    @ObservationIgnored private let server: (any ServerConnection)?
    @ObservationIgnored private let logger: Logger
    @ObservationIgnored private var task: Task<Void, Never>?
    /// Counts ``run(_:)``s: only the last one to start clears ``isBusy``.
    @ObservationIgnored private var runs = 0
    /// How many are looking (``follow()``), and the task re-reading for them.
    @ObservationIgnored private var followers = 0
    @ObservationIgnored private var following: Task<Void, Never>?
    /// How often a followed list is read again.
    @ObservationIgnored public var followInterval = AccountSessionsModel.followInterval
    /// The default ``followInterval``.
    public nonisolated static let followInterval: Duration = .seconds(30)

    /// The follow interval, or `LISTENUP_DEVICES_REFRESH_SECONDS` in
    /// `environment` (tests shorten it; a value that is not a positive
    /// number is ignored).
    public nonisolated static func followInterval(environment: [String: String]) -> Duration {
        guard let text = environment["LISTENUP_DEVICES_REFRESH_SECONDS"], let seconds = Double(text), seconds > 0, seconds.isFinite else {
            return followInterval
        }
        return .milliseconds(Int64(seconds * 1_000))
    }

    public init(server: (any ServerConnection)?, logger: Logger) {
        self.server = server
        self.logger = logger
    }

    /// Reads the list again (a read under way is let finish).
    public func refresh() {
        run { _ in }
    }

    /// Someone looks at the list: it is read now (unless it was just read:
    /// `readingNow` false) and every ``followInterval`` until each
    /// ``follow(readingNow:)`` has its ``unfollow()``.
    public func follow(readingNow: Bool = true) {
        followers += 1
        guard following == nil else { return }
        if readingNow { refresh() }
        following = Task { [weak self] in
            while !Task.isCancelled {
                guard let interval = self?.followInterval else { return }
                do { try await Task.sleep(for: interval) } catch { return }
                // Unfollowed while this sleep's wake-up was already queued:
                // the sleep ended without throwing, the cancel came after.
                guard !Task.isCancelled, let self, self.isSupported else { return }
                self.refresh()
            }
        }
    }

    /// One who looked at the list no longer does.
    public func unfollow() {
        followers = max(0, followers - 1)
        guard followers == 0 else { return }
        following?.cancel()
        following = nil
    }

    /// Stops following for good (the session ended).
    public func stop() {
        followers = 0
        following?.cancel()
        following = nil
    }

    /// Signs out session `id` (another device), then reads the list again.
    /// This device's own session is refused: *Sign Out* is for that.
    public func end(_ id: String) {
        guard sessions?.first(where: { $0.id == id })?.isCurrent != true else { return }
        let known = sessions != nil
        run { server throws(ServerError) in
            // Not read yet: the server says which one is this device's.
            if !known, try await server.accountSessions()?.first(where: { $0.id == id })?.isCurrent == true { return }
            try await server.endAccountSession(id: id)
        }
    }

    /// Signs out every session but this device's (as the server lists them
    /// now), then reads the list again.
    public func endOthers() {
        run { server throws(ServerError) in
            for session in try await server.accountSessions() ?? [] where !session.isCurrent {
                try await server.endAccountSession(id: session.id)
            }
        }
    }

    /// Runs `change` (if any), then reads the list; one at a time.
    private func run(_ change: @escaping @Sendable (any ServerConnection) async throws(ServerError) -> Void) {
        guard let server else {
            isSupported = false
            return
        }
        let previous = task
        isBusy = true
        runs += 1
        let run = runs
        task = Task { [weak self, logger] in
            await previous?.value
            var failure: ServerError?
            var listed: [AccountSession]?
            var supported = true
            do throws(ServerError) {
                try await change(server)
                listed = try await server.accountSessions()
                supported = listed != nil
            } catch {
                logger.warning("Could not read or change the account's sessions", metadata: ["code": "\(error.code)"])
                failure = error
            }
            guard let self else { return }
            // A change chained after this one keeps the model busy.
            if run == self.runs { self.isBusy = false }
            self.failure = failure
            if failure == nil {
                self.isSupported = supported
                self.sessions = listed
            }
            self.reads += 1
        }
    }

    /// Waits for the reads and changes under way (tests, the headless front).
    public func settle() async {
        await task?.value
    }
}
