import Foundation

/// Where "now" comes from; tests inject a clock they move by hand.
public struct PairingClock: Sendable {
    /// The current time.
    public var now: @Sendable () -> Date

    /// A clock reading `now`.
    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// The system's wall clock.
    public static let system = PairingClock { Date() }
}

/// One session id and its one-time code.
public struct PairingCode: Sendable, Equatable {
    /// The session id (≥ 128 bits).
    public let session: [UInt8]
    /// The one-time code (≥ 128 bits; never logged).
    public let code: [UInt8]
    /// When it was issued.
    public let issuedAt: Date
    /// When the next code replaces it (it stays valid for the grace period after).
    public let rotatesAt: Date

    /// `session` as base64url.
    public var sessionString: String { Base64URL.encode(session) }
    /// `code` as base64url.
    public var codeString: String { Base64URL.encode(code) }
}

/// The pairing codes while pairing is open: a pure state machine (no clock,
/// no I/O, every call takes `now`), so tests drive time by hand.
///
/// Open → a session id and code; every `rotation` seconds a new pair, the
/// previous one still accepted for `grace` seconds; after `lifetime` seconds
/// no code at all (``State/expired``) until ``open(now:)`` again. A code is
/// burned by a correct presentation (one-time) or by `maxWrongAttempts` wrong
/// ones; burning the current code issues a new one at once. Not thread-safe:
/// the owner serialises access.
public struct PairingCodes: Sendable {
    /// The timing rules.
    public struct Timing: Sendable, Equatable {
        /// Seconds between new codes.
        public var rotation: TimeInterval = 30
        /// Seconds a replaced code still works.
        public var grace: TimeInterval = 10
        /// Seconds pairing stays open.
        public var lifetime: TimeInterval = 300
        /// Wrong codes that burn a session.
        public var maxWrongAttempts = 3

        /// The protocol's rules, or others for tests.
        public init(rotation: TimeInterval = 30, grace: TimeInterval = 10, lifetime: TimeInterval = 300, maxWrongAttempts: Int = 3) {
            self.rotation = rotation
            self.grace = grace
            self.lifetime = lifetime
            self.maxWrongAttempts = maxWrongAttempts
        }
    }

    /// What the pairing screen shows.
    public enum State: Sendable, Equatable {
        /// Pairing is not open.
        case closed
        /// `code` is current; pairing closes by itself at `endsAt`.
        case open(code: PairingCode, endsAt: Date)
        /// The 5 minutes are over: "Show a new code".
        case expired
    }

    /// The outcome of presenting a session id and code.
    public enum Verification: Sendable, Equatable {
        /// Right code: it is now burned.
        case accepted
        /// Wrong code; after `remaining` more wrong attempts it is burned (0: burned now).
        case wrongCode(remaining: Int)
        /// Burned by too many wrong attempts (reported from the attempt after the last allowed one).
        case burned
        /// Already used by a pairing.
        case used
        /// Known session, past its validity (or pairing expired).
        case expired
        /// Session id never issued (or long gone).
        case unknownSession
        /// Pairing is not open.
        case closed
    }

    private enum Use: Sendable { case live, used, burned }

    private struct Entry: Sendable {
        var code: PairingCode
        var validUntil: Date?
        var use: Use = .live
        var wrongAttempts = 0
    }

    /// The rules in force.
    public let timing: Timing
    private let random: @Sendable (Int) -> [UInt8]
    private var entries: [Entry] = []
    private var openedAt: Date?
    private var isExpired = false

    /// - Parameters:
    ///   - timing: rotation, grace, lifetime, attempts.
    ///   - random: `n` cryptographically random bytes (the system generator by default).
    public init(timing: Timing = Timing(), random: @escaping @Sendable (Int) -> [UInt8] = PairingCodes.systemRandom) {
        self.timing = timing
        self.random = random
    }

    /// `count` bytes from the system's CSPRNG.
    public static let systemRandom: @Sendable (Int) -> [UInt8] = { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The current state at `now` (call ``advance(now:)`` first to rotate).
    public var state: State {
        guard let openedAt else { return isExpired ? .expired : .closed }
        guard let current = entries.last else { return .closed }
        return .open(code: current.code, endsAt: openedAt.addingTimeInterval(timing.lifetime))
    }

    /// Opens (or re-opens after expiry) with a fresh code; the 5 minutes start now.
    public mutating func open(now: Date) {
        entries.removeAll()
        openedAt = now
        isExpired = false
        issue(now: now)
    }

    /// Closes: no code is accepted any more.
    public mutating func close() {
        entries.removeAll()
        openedAt = nil
        isExpired = false
    }

    /// Rotates or expires as time requires.
    /// - Returns: whether ``state`` changed.
    @discardableResult
    public mutating func advance(now: Date) -> Bool {
        guard let openedAt else { return false }
        if now >= openedAt.addingTimeInterval(timing.lifetime) {
            entries.removeAll()
            self.openedAt = nil
            isExpired = true
            return true
        }
        guard let current = entries.last, now >= current.code.rotatesAt else { return false }
        issue(now: now)
        return true
    }

    /// Checks a presented session id and code (constant-time on the code),
    /// counting wrong attempts and burning the code as the rules say.
    public mutating func verify(session: String, code: String, now: Date) -> Verification {
        advance(now: now)
        guard openedAt != nil else { return isExpired ? .expired : .closed }
        guard let index = entries.firstIndex(where: { $0.code.sessionString == session }) else { return .unknownSession }
        if let until = entries[index].validUntil, now >= until { return .expired }
        switch entries[index].use {
        case .used: return .used
        case .burned: return .burned
        case .live: break
        }
        let presented = Base64URL.decode(code) ?? Array(code.utf8)
        if ConstantTime.equals(presented, entries[index].code.code) {
            entries[index].use = .used
            if index == entries.count - 1 { issue(now: now) }
            return .accepted
        }
        entries[index].wrongAttempts += 1
        let remaining = timing.maxWrongAttempts - entries[index].wrongAttempts
        if remaining <= 0 {
            entries[index].use = .burned
            if index == entries.count - 1 { issue(now: now) }
        }
        return .wrongCode(remaining: max(0, remaining))
    }

    private mutating func issue(now: Date) {
        if let last = entries.indices.last, entries[last].validUntil == nil {
            // The grace runs from the scheduled rotation, however late the tick that performs it.
            entries[last].validUntil = min(now, entries[last].code.rotatesAt).addingTimeInterval(timing.grace)
        }
        let code = PairingCode(session: random(16), code: random(16), issuedAt: now, rotatesAt: now.addingTimeInterval(timing.rotation))
        entries.append(Entry(code: code))
        if entries.count > 32 { entries.removeFirst(entries.count - 32) }
    }
}
