import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Pairing
import ListenUpCore
import QRCode

/// Figures for bench/pairing: QR render time and the pairing round trip over
/// loopback (the human's decision excluded: the confirmation answers at once).
/// Not a test; prints figures and never fails on a missed goal.
@main
enum PairingBench {
    static func say(_ line: String) { try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8)) }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    static func summary(_ name: String, _ samples: [Double], goal: Double) {
        let sorted = samples.sorted()
        let median = sorted[sorted.count / 2]
        let p90 = sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
        say(String(format: "%@: median %.3f ms, p90 %.3f ms, min %.3f ms (n=%d, goal ≤ %.0f ms: %@)",
                   name, median, p90, sorted[0], sorted.count, goal, median <= goal ? "met" : "MISSED"))
    }

    static func environmentInt(_ name: String, _ fallback: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? fallback
    }

    static func main() async throws {
        let clock = ContinuousClock()
        // 1. QR: a 200-byte payload shaped like a real pairing URI.
        var payload = "listenup-pair:v1?name=Bench%20Desk&addr=127.0.0.1&port=45678&fp=" + String(repeating: "A", count: 43)
            + "&session=" + String(repeating: "B", count: 22) + "&code=" + String(repeating: "C", count: 22) + "&exp=1767225600&"
        payload += String(repeating: "x", count: max(0, 200 - payload.utf8.count))
        let runs = environmentInt("QR_RUNS", 200)
        for _ in 0..<10 { _ = QRImage(matrix: try QRMatrix.encode(payload), moduleSize: 8).rgbaPixels }
        var direct: [Double] = []
        for _ in 0..<runs {
            let elapsed = try clock.measure { _ = QRImage(matrix: try QRMatrix.encode(payload), moduleSize: 8).rgbaPixels }
            direct.append(milliseconds(elapsed))
        }
        say("QR payload \(payload.utf8.count) bytes, module size 8 px")
        summary("QR encode + draw (RGBA)", direct, goal: 5)

        let published = AsyncStream.makeStream(of: QRRenderer.Rendered.self)
        let renderer = QRRenderer(moduleSize: 8, encoder: .libqrencode) { published.continuation.yield($0) }
        var iterator = published.stream.makeAsyncIterator()
        var viaActor: [Double] = []
        for index in 0..<runs {
            let start = clock.now
            await renderer.render(payload + String(index % 10))
            _ = await iterator.next()
            viaActor.append(milliseconds(clock.now - start))
        }
        summary("QR via QRRenderer (request → publish, gray image)", viaActor, goal: 5)

        // 2. Pairing round trip over 127.0.0.1.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pairing-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = PairingStorage(directory: directory.appendingPathComponent("desktop"))
        var configuration = DiscoveryServer.Configuration(desktopName: "Bench Desk", appVersion: "bench", bindAddresses: ["127.0.0.1"])
        configuration.advertise = false
        configuration.rateLimitAttempts = 1_000_000
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        let server = try DiscoveryServer(storage: storage, configuration: configuration, logger: logger,
                                         status: { .init(activeRoute: "bench") })
        // The user accepts every request as it arrives.
        let requests = server.events()
        let user = Task {
            for await event in requests {
                if case .request(let request) = event { server.answer(request.id, accept: true) }
            }
        }
        defer { user.cancel() }
        try await server.start()
        try server.openPairing()
        let companion = CompanionClient(storage: PairingStorage(directory: directory.appendingPathComponent("companion")))
        let pairs = environmentInt("PAIR_RUNS", 50)
        var roundTrips: [Double] = []
        var statuses: [Double] = []
        for index in 0..<(pairs + 3) {
            guard case .open(let uri, _, _) = server.state else { break }
            let start = clock.now
            try await companion.pair(uri: uri, clientName: "Bench \(index)", clientModel: "bench")
            let paired = clock.now
            _ = try await companion.status()
            if index >= 3 { // warm-up
                roundTrips.append(milliseconds(paired - start))
                statuses.append(milliseconds(clock.now - paired))
            }
        }
        await server.stop()
        summary("Pairing round trip (TLS connect + POST /api/v1/pair + token stored)", roundTrips, goal: 100)
        summary("GET /api/v1/status with the token (new TLS connection)", statuses, goal: 100)

        try await idleConnections(storage: storage, logger: logger)
    }

    /// 3. Many idle TLS connections held open (handshake done, no request):
    ///    what they cost, and whether the server still answers promptly.
    static func idleConnections(storage: PairingStorage, logger: Logger) async throws {
        let count = environmentInt("IDLE_CONNECTIONS", 200)
        var configuration = DiscoveryServer.Configuration(desktopName: "Bench Desk", appVersion: "bench", bindAddresses: ["127.0.0.1"])
        configuration.advertise = false
        configuration.idleTimeout = 120 // hold them for the measurement (the default closes idle ones after 5 s)
        configuration.requestTimeout = 120
        let server = try DiscoveryServer(storage: storage, configuration: configuration, logger: logger,
                                         status: { .init(activeRoute: "bench") })
        let port = try await server.start()
        let client = PinnedHTTPSClient(pin: server.fingerprint)
        var quiet: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<20 {
            let start = clock.now
            _ = try await client.send(host: "127.0.0.1", port: port, method: .GET, path: "/api/v1/pair/info")
            quiet.append(milliseconds(clock.now - start))
        }
        let rssBefore = residentKiB()
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none // the bench's own server; pinning is measured above
        let context = try NIOSSLContext(configuration: tls)
        var channels: [any Channel] = []
        let handshakes = clock.now
        for _ in 0..<count {
            let handshake = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Void.self)
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: context, serverHostname: nil))
                        try channel.pipeline.syncOperations.addHandler(HandshakeWatcher(promise: handshake))
                    }
                }
                .connect(host: "127.0.0.1", port: port).get()
            try await handshake.futureResult.get()
            channels.append(channel)
        }
        let handshakeTime = milliseconds(clock.now - handshakes)
        let rssAfter = residentKiB()
        var loaded: [Double] = []
        var hops: [Double] = []
        for _ in 0..<20 {
            let start = clock.now
            _ = try await client.send(host: "127.0.0.1", port: port, method: .GET, path: "/api/v1/pair/info")
            loaded.append(milliseconds(clock.now - start))
            let hop = clock.now
            await MainActor.run {}
            hops.append(milliseconds(clock.now - hop))
        }
        let open = channels.filter(\.isActive).count
        say(String(format: "%d idle TLS connections: opened and handshaken in %.0f ms, %d still open, RSS +%d KiB (%.1f KiB each)",
                   count, handshakeTime, open, rssAfter - rssBefore, Double(rssAfter - rssBefore) / Double(max(1, count))))
        summary("GET /api/v1/pair/info, no idle connections", quiet, goal: 100)
        summary("GET /api/v1/pair/info with \(count) idle TLS connections held", loaded, goal: 100)
        summary("Main-actor hop with \(count) idle TLS connections held", hops, goal: 5)
        for channel in channels { try? await channel.close() }
        await server.stop()
    }

    static func residentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
}

/// Completes its promise when the TLS handshake is done (or fails it).
/// `@unchecked Sendable`: used only on its channel's event loop.
final class HandshakeWatcher: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    private let promise: EventLoopPromise<Void>

    init(promise: EventLoopPromise<Void>) { self.promise = promise }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event { promise.succeed() }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }
}
