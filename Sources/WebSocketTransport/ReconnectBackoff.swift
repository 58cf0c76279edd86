import Foundation

/// How long to wait before each reconnection attempt: `initial` after the
/// first failure, multiplied by `multiplier` after each further one, capped at
/// `maximum`, each delay shortened by a random part of up to `jitter` (so that
/// many clients dropped by one server restart do not return in step).
/// ``reset()`` after a connection succeeds.
///
/// A pure value type: no clock, no I/O; any thread. The caller sleeps.
///
/// ```swift
/// var backoff = ReconnectBackoff()
/// while true {
///     do { try await runSession(); backoff.reset() }
///     catch { try await Task.sleep(for: backoff.nextDelay()) }
/// }
/// ```
public struct ReconnectBackoff: Sendable, Equatable {
    /// The delay after the first failure, before jitter.
    public let initial: Duration
    /// No delay is longer than this.
    public let maximum: Duration
    /// The growth factor from one failure to the next (at least 1).
    public let multiplier: Double
    /// The largest fraction by which jitter shortens a delay, in 0...1.
    public let jitter: Double
    /// Failures counted since the last ``reset()``.
    public private(set) var failures = 0

    /// A schedule; the defaults give 0.5 s, 1 s, 2 s, … 30 s, each up to 20 % shorter.
    /// - Parameters:
    ///   - initial: the first delay (negative values count as zero).
    ///   - maximum: the cap (raised to `initial` if smaller).
    ///   - multiplier: the growth factor (values below 1 count as 1).
    ///   - jitter: the largest random shortening, as a fraction (clamped to 0...1).
    public init(initial: Duration = .milliseconds(500), maximum: Duration = .seconds(30),
                multiplier: Double = 2, jitter: Double = 0.2) {
        self.initial = max(initial, .zero)
        self.maximum = max(maximum, self.initial)
        self.multiplier = multiplier.isFinite ? max(multiplier, 1) : 1
        self.jitter = jitter.isFinite ? min(max(jitter, 0), 1) : 0
    }

    /// The delay after `failures` earlier failures, before jitter.
    /// - Parameter failures: 0 for the first attempt's delay.
    /// - Returns: `initial × multiplier^failures`, at most `maximum`.
    public func baseDelay(afterFailures failures: Int) -> Duration {
        let growth = pow(multiplier, Double(min(max(failures, 0), 1024)))
        let seconds = Self.seconds(initial) * growth
        let cap = Self.seconds(maximum)
        return seconds.isFinite && seconds < cap ? .seconds(seconds) : maximum
    }

    /// Counts a failure and returns how long to wait before the next attempt.
    /// - Parameter generator: the source of jitter (a seeded one in tests).
    /// - Returns: a delay in `base × (1 − jitter)...base`.
    public mutating func nextDelay<Generator: RandomNumberGenerator>(using generator: inout Generator) -> Duration {
        let base = baseDelay(afterFailures: failures)
        failures += 1
        guard jitter > 0 else { return base }
        let shortening = jitter * Double.random(in: 0...1, using: &generator)
        return .seconds(Self.seconds(base) * (1 - shortening))
    }

    /// Counts a failure and returns how long to wait, with system randomness.
    /// - Returns: a delay in `base × (1 − jitter)...base`.
    public mutating func nextDelay() -> Duration {
        var generator = SystemRandomNumberGenerator()
        return nextDelay(using: &generator)
    }

    /// Starts over from `initial`: call it once a connection is established.
    public mutating func reset() { failures = 0 }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
