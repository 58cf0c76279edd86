import Foundation
import Logging
import Testing
@testable import DemoServer

/// The one attempt limiter both protocols' auth limits use: a bucket per
/// key, spent one attempt at a time and earned back over time, or not at
/// all with the refill off.
@Suite("Demo server rate limits")
struct DemoRateLimitTests {
    static func service(refills: Bool = true) -> DemoService {
        var configuration = DemoServer.Configuration()
        configuration.rateLimitsRefill = refills
        configuration.bookCount = 1
        return DemoService(configuration: configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    @Test func theGoServersBucketIsTenThenOneEveryThreeSeconds() {
        let service = Self.service()
        let start = Date(timeIntervalSince1970: 1_000)
        for attempt in 1...10 {
            #expect(service.takeAttempt("rest|a", under: .rest, now: start) == nil, "attempt \(attempt)")
        }
        #expect(service.takeAttempt("rest|a", under: .rest, now: start) == 3, "the 11th waits for the next one back")
        #expect(service.takeAttempt("rest|b", under: .rest, now: start) == nil, "another client has its own bucket")
        #expect(service.takeAttempt("rest|a", under: .rest, now: start.addingTimeInterval(3)) == nil, "one back after 3 s")
        #expect(service.takeAttempt("rest|a", under: .rest, now: start.addingTimeInterval(3)) == 3)
    }

    @Test func perMinuteLimitsSpreadTheirMinute() {
        let service = Self.service()
        let start = Date(timeIntervalSince1970: 1_000)
        for _ in 1...5 { #expect(service.takeAttempt("krpc-register|h", under: .perMinute(5), now: start) == nil) }
        #expect(service.takeAttempt("krpc-register|h", under: .perMinute(5), now: start) == 12, "one back every 12 s")
        #expect(service.takeAttempt("krpc-register|h", under: .perMinute(5), now: start.addingTimeInterval(6)) == 6,
                "half of one earned: 6 s more")
    }

    @Test func withoutTheRefillASpentBucketStaysSpent() {
        let service = Self.service(refills: false)
        let start = Date(timeIntervalSince1970: 1_000)
        for _ in 1...10 { #expect(service.takeAttempt("rest|a", under: .rest, now: start) == nil) }
        #expect(service.takeAttempt("rest|a", under: .rest, now: start.addingTimeInterval(3_600)) != nil, "nothing back an hour later")
    }
}
