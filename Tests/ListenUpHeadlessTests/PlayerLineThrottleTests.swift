import Foundation
import JSONToolkit
import Testing
@testable import ListenUpHeadless

/// When the headless front prints the player's state.
@Suite("Player lines")
struct PlayerLineThrottleTests {
    static func playing(_ position: Int) -> JSONValue {
        ["status": "playing", "positionMs": .number(Double(position))]
    }

    @Test func aReportASecondApartIsPrintedEvenWhenItComesAHairEarly() {
        // The engine's 1-second reports, each reaching the main actor a
        // little earlier than the last (as they did: lines 2 s apart every
        // other second).
        let start = ContinuousClock.now
        var throttle = PlayerLineThrottle()
        var printedAt: [Duration] = []
        for report in 0..<10 {
            let at = Duration.milliseconds(400 + report * 1_000 - report * 2)
            if throttle.decide(Self.playing(report * 1_000), now: start.advanced(by: at)) == .print { printedAt.append(at) }
        }
        #expect(printedAt.count == 10, "\(printedAt)")
        for (earlier, later) in zip(printedAt, printedAt.dropFirst()) {
            #expect(later - earlier < .milliseconds(1_500))
        }
    }

    @Test func fasterReportsWaitTheirTurnAndOtherChangesDoNot() {
        let start = ContinuousClock.now
        var throttle = PlayerLineThrottle()
        #expect(throttle.decide(Self.playing(0), now: start) == .print)
        #expect(throttle.decide(Self.playing(0), now: start.advanced(by: .milliseconds(10))) == .unchanged)
        #expect(throttle.decide(Self.playing(250), now: start.advanced(by: .milliseconds(250))) == .wait(.milliseconds(500)))
        #expect(throttle.decide(Self.playing(750), now: start.advanced(by: .milliseconds(750))) == .print)
        let paused: JSONValue = ["status": "paused", "positionMs": 800]
        #expect(throttle.decide(paused, now: start.advanced(by: .milliseconds(800))) == .print, "a change of status at once")
    }
}
