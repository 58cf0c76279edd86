import ListenUpTestSupport
import Testing
import WebSocketTransport

@Suite("ReconnectBackoff")
struct ReconnectBackoffTests {
    @Test("without jitter: 0.5 s doubling, capped at 30 s")
    func doublesUpToTheCap() {
        var backoff = ReconnectBackoff(jitter: 0)
        let delays = (0..<10).map { _ in backoff.nextDelay() }
        #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8),
                           .seconds(16), .seconds(30), .seconds(30), .seconds(30), .seconds(30)])
        #expect(backoff.failures == 10)
    }

    @Test("reset starts over from the initial delay")
    func resetStartsOver() {
        var backoff = ReconnectBackoff(jitter: 0)
        _ = backoff.nextDelay()
        _ = backoff.nextDelay()
        backoff.reset()
        #expect(backoff.failures == 0)
        #expect(backoff.nextDelay() == .milliseconds(500))
    }

    @Test("jitter shortens each delay by at most its fraction, and varies")
    func jitterStaysInRange() {
        var generator = SeededRandom(seed: 42)
        var backoff = ReconnectBackoff()  // jitter 0.2
        var seen: Set<Duration> = []
        for failures in 0..<12 {
            let base = backoff.baseDelay(afterFailures: failures)
            let delay = backoff.nextDelay(using: &generator)
            #expect(delay <= base)
            #expect(delay >= base * 4 / 5 - .microseconds(1))
            seen.insert(delay)
        }
        #expect(seen.count > 6)
    }

    @Test("the same seed gives the same delays")
    func seededJitterIsDeterministic() {
        var first = SeededRandom(seed: 7), second = SeededRandom(seed: 7)
        var a = ReconnectBackoff(), b = ReconnectBackoff()
        #expect((0..<5).map { _ in a.nextDelay(using: &first) } == (0..<5).map { _ in b.nextDelay(using: &second) })
    }

    @Test("odd parameters are clamped, and huge failure counts stay at the cap")
    func clampsParameters() {
        let backoff = ReconnectBackoff(initial: .seconds(5), maximum: .seconds(1), multiplier: 0.5, jitter: 3)
        #expect(backoff.maximum == .seconds(5))
        #expect(backoff.multiplier == 1)
        #expect(backoff.jitter == 1)
        #expect(ReconnectBackoff().baseDelay(afterFailures: .max) == .seconds(30))
        #expect(ReconnectBackoff().baseDelay(afterFailures: -3) == .milliseconds(500))
    }
}
