import Foundation

/// How many attempts a client may make, as both of today's servers limit
/// sign-in and the calls beside it: one bucket per key (a limit and a
/// client address) that holds `capacity` attempts and earns one back every
/// `secondsPerAttempt`. REST v1 (the Go server): setup, login, register
/// and invites share a bucket of 10 per client, one back every 3 s. kRPC
/// (today's server): each limited method so many calls a minute per address.
struct DemoRateLimit: Sendable {
    /// Attempts a full bucket holds.
    var capacity: Double
    /// Seconds to earn one attempt back.
    var secondsPerAttempt: TimeInterval

    /// The Go server's auth bucket: a burst of 10, one back every 3 s.
    static let rest = DemoRateLimit(capacity: 10, secondsPerAttempt: 3)

    /// `count` calls a minute.
    static func perMinute(_ count: Int) -> DemoRateLimit {
        let capacity = Double(max(1, count))
        return DemoRateLimit(capacity: capacity, secondsPerAttempt: 60 / capacity)
    }
}

extension DemoService {
    /// Takes one attempt from `key`'s bucket under `limit`: nil when there
    /// was one, else the whole seconds until there is. With
    /// ``DemoServer/Configuration/rateLimitsRefill`` off, an empty bucket
    /// stays empty.
    func takeAttempt(_ key: String, under limit: DemoRateLimit, now: Date = Date()) -> Int? {
        let refills = configuration.rateLimitsRefill
        return state.withLock { state -> Int? in
            var bucket = state.buckets[key] ?? (tokens: limit.capacity, updated: now)
            if refills {
                bucket.tokens = min(limit.capacity, bucket.tokens + now.timeIntervalSince(bucket.updated) / limit.secondsPerAttempt)
            }
            bucket.updated = now
            defer { state.buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return max(1, Int(((1 - bucket.tokens) * limit.secondsPerAttempt).rounded(.up))) }
            bucket.tokens -= 1
            return nil
        }
    }
}
