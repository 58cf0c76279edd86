import Foundation
import Observation
import Testing
@testable import ListenUpCore

/// Following the model a holder swaps: told once per replacement, then of
/// the new one's changes only.
@MainActor
@Suite("ModelFollower")
struct ModelFollowerTests {
    @Observable final class Counter {
        var value = 0
    }

    @Observable final class Holder {
        var counter: Counter?
    }

    func settle(_ done: () -> Bool) async {
        for _ in 0..<1000 where !done() { try? await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func followsEachModelOnceAndOnlyTheCurrentOnesChanges() async throws {
        let holder = Holder()
        var replacements: [Counter?] = []
        var seen: [Int] = []
        let follower = ModelFollower({ holder.counter }, replaced: { replacements.append($0) }, follow: { seen.append($0.value) })
        follower.start()
        #expect(replacements.isEmpty, "none to none is no replacement")

        let first = Counter()
        holder.counter = first
        await settle { seen == [0] }
        #expect(replacements.count == 1 && replacements[0] === first)
        #expect(follower.model === first)
        first.value = 1
        await settle { seen == [0, 1] }
        #expect(seen == [0, 1])

        let second = Counter()
        second.value = 10
        holder.counter = second
        await settle { seen == [0, 1, 10] }
        #expect(replacements.count == 2 && replacements[1] === second)
        first.value = 2
        second.value = 11
        await settle { seen == [0, 1, 10, 11] }
        #expect(seen == [0, 1, 10, 11], "the replaced model is no longer followed")

        holder.counter = nil
        await settle { replacements.count == 3 }
        #expect(replacements.count == 3 && replacements[2] == nil)
        #expect(follower.model == nil)
        follower.cancel()
        holder.counter = Counter()
        try await Task.sleep(for: .milliseconds(50))
        #expect(replacements.count == 3, "nothing after cancel")
    }
}
