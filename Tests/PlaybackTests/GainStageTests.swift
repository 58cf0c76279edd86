import Foundation
import ListenUpCore
@testable import Playback
import Testing

/// What the gain stage sets its three elements to, without GStreamer.
@Suite("The gain stage's settings")
struct GainStageTests {
    @Test func zeroDecibelsIsUnityWithTheLimiterOff() {
        let settings = GainStage.Settings(decibels: 0)
        #expect(settings.gain == 1 && settings.ceiling == 1 && !settings.limiting)
    }

    @Test func aCutIsOnlyAGain() {
        let settings = GainStage.Settings(decibels: -6)
        #expect(!settings.limiting)
        #expect(settings.ceiling == 1)
        #expect(abs(settings.gain - 0.501_187) < 1e-6)
    }

    @Test(arguments: [0.5, 6, 12])
    func aBoostIsLimitedUnderTheCeilingAndExactBelowIt(decibels: Double) {
        let settings = GainStage.Settings(decibels: decibels)
        #expect(settings.limiting)
        #expect(settings.ceiling < 1 && settings.ceiling == GainStage.ceiling)
        // Below the knee the two volumes make the gain asked for.
        #expect(abs(settings.gain * settings.ceiling - pow(10, decibels / 20)) < 1e-12)
    }

    @Test func theGainIsClampedToTheRange() {
        #expect(PlaybackEngineDefaults.gainRange == -24...12)
        #expect(GainStage.Settings(decibels: 40) == GainStage.Settings(decibels: 12))
        #expect(GainStage.Settings(decibels: .infinity) == GainStage.Settings(decibels: 12))
        #expect(GainStage.Settings(decibels: -100) == GainStage.Settings(decibels: -24))
        #expect(GainStage.Settings(decibels: .nan) == GainStage.Settings(decibels: 0))
    }

    @Test func theCeilingIsOneDecibelUnderFullScale() {
        #expect(abs(20 * log10(GainStage.ceiling) + 1) < 1e-9)
    }
}
