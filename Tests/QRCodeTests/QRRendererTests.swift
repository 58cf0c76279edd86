import Foundation
import Synchronization
import Testing
import ListenUpCore
import QRCode

/// Records what a renderer published, and the newest token the test knows was accepted.
private final class PublishLog: Sendable {
    struct State {
        var published: [QRRenderer.Rendered] = []
        var acceptedUpTo: UInt64 = 0
        var stale = 0
    }

    let state = Mutex(State())

    /// What was published, in order (for failure messages).
    var payloads: [String] { state.withLock { $0.published.map(\.payload) } }

    func accepted(_ token: UInt64) { state.withLock { $0.acceptedUpTo = max($0.acceptedUpTo, token) } }

    func publish(_ rendered: QRRenderer.Rendered) {
        state.withLock { state in
            // Stale: a newer request had already been accepted when this one published.
            if rendered.token < state.acceptedUpTo { state.stale += 1 }
            state.published.append(rendered)
        }
    }
}

/// A gate a slow test encoder waits on: ten seconds at most, since the
/// encoder runs on a thread of the cooperative pool and a gate left shut
/// would take that thread from every other test for good.
private final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func wait() { _ = semaphore.wait(timeout: .now() + 10) }
    func open() { semaphore.signal() }
}

private func waitUntil(timeout: Duration = .seconds(10), _ condition: @Sendable () async -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return await condition()
}

/// One at a time: two gated encoders at once would hold both of a 2-core
/// machine's pool threads.
@Suite(.serialized) struct QRRendererTests {
    @Test func thousandRapidChangesPublishOnlyTheLatest() async throws {
        let log = PublishLog()
        let renderer = QRRenderer(moduleSize: 4, encoder: .libqrencode) { log.publish($0) }
        var tokens: [UInt64: String] = [:]
        var last = ""
        for index in 0..<1000 {
            last = "listenup-pair:v1?n=\(index)&pad=" + String(repeating: "x", count: index % 50)
            let token = await renderer.render(last)
            log.accepted(token)
            tokens[token] = last
        }
        let lastToken = await renderer.latestToken
        #expect(await waitUntil { log.state.withLock { $0.published.last?.token == lastToken } })
        try? await Task.sleep(for: .milliseconds(100)) // anything still in flight would publish now
        let state = log.state.withLock { $0 }
        #expect(state.stale == 0)
        #expect(state.published.last?.payload == last)
        #expect(state.published.last?.image == QRImage(matrix: try QRMatrix.encode(last), moduleSize: 4))
        for rendered in state.published { #expect(tokens[rendered.token] == rendered.payload) }
        #expect(zip(state.published, state.published.dropFirst()).allSatisfy { $0.token < $1.token })
    }

    @Test func aCancelledRenderPublishesNothing() async throws {
        let gate = Gate()
        let log = PublishLog()
        let renderer = QRRenderer(encoder: .init { payload in
            gate.wait()
            return try QRMatrix.encode(payload)
        }, publish: { log.publish($0) })
        await renderer.render("listenup-pair:v1?cancelled")
        await renderer.cancel()
        gate.open()
        try await Task.sleep(for: .milliseconds(300))
        #expect(log.state.withLock { $0.published.isEmpty }, "published: \(log.payloads)")

        // Control: the same slow render, not cancelled, does publish.
        await renderer.render("listenup-pair:v1?kept")
        gate.open()
        #expect(await waitUntil { log.state.withLock { $0.published.count == 1 } }, "published: \(log.payloads)")
        #expect(log.state.withLock { $0.published.first?.payload } == "listenup-pair:v1?kept")
    }

    @Test func aSupersededSlowRenderNeverPublishes() async throws {
        let gate = Gate()
        let log = PublishLog()
        let renderer = QRRenderer(encoder: .init { payload in
            if payload == "old" { gate.wait() }
            return try QRMatrix.encode(payload)
        }, publish: { log.publish($0) })
        await renderer.render("old")
        await renderer.render("new")
        #expect(await waitUntil { log.state.withLock { !$0.published.isEmpty } })
        gate.open()
        try await Task.sleep(for: .milliseconds(200))
        #expect(log.state.withLock { $0.published.map(\.payload) } == ["new"])
    }

    @Test func resultsStreamCarriesThePublishedImage() async throws {
        let renderer = QRRenderer(encoder: .libqrencode)
        await renderer.render("hello")
        var iterator = renderer.results.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.payload == "hello")
    }
}
