import ArgumentParser
import DemoServer
import Dispatch
import Foundation
import Logging

/// `listenup-demo-server`: a ListenUp-compatible server for trying the app
/// and for the integration tests.
@main
struct DemoServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listenup-demo-server",
        abstract: "A ListenUp-compatible server with a generated library, for trying ListenUp for Linux and for its tests."
    )

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0 picks a free one).") var port = 8080
    @Option(name: .customLong("books"), help: "Number of generated books.") var bookCount = 200
    @Option(help: "The server's name.") var serverName = "ListenUp Demo"
    @Option(help: "Create this admin at start (with --admin-password).") var adminEmail: String?
    @Option(help: "The pre-created admin's password.") var adminPassword: String?
    @Option(name: .customLong("protocol"),
            help: "The wire protocol: rest (ListenUp REST v1, the Go server) or krpc (kRPC over WebSocket, the v0.9 server).")
    var wireProtocol: DemoProtocol = .rest
    @Option(help: "Seconds an access token lives (default: 30 days with rest, 15 minutes with krpc).")
    var accessTokenLifetime: Double?
    @Option(help: "krpc: seconds between the server's WebSocket pings.") var pingInterval: Double = 15
    @Option(help: "krpc: seconds to wait for a pong before closing with 1011 \"Ping timeout\".") var pingTimeout: Double = 15
    @Option(help: "Seconds between event-stream heartbeats (default: 15 with rest, 25 with krpc).") var heartbeatInterval: Double?
    @Flag(help: "Announce the server on the LAN (_listenup._tcp through Avahi).") var advertise = false
    @Option(help: "Make every chapter this many seconds long (short books for tests); by default books last 1 to 11 hours.")
    var chapterSeconds: Double?
    @Flag(help: "Put every chapter in a file of its own, as many audiobooks come; by default files are cut elsewhere than the chapters.")
    var filePerChapter = false
    @Option(help: "What each book carries: compact (3–12 chapters, 2–4 files, two people) or realistic (10–60 chapters, 1–30 files, 1–4 people, a series, a 1–2 KB description).")
    var payload: DemoPayload = .compact
    @Option(help: "Shelves each new account starts with: \"To Read\" and, beyond one, shelves of 20 books (for benches).")
    var shelves = 1
    @Flag(help: "Print one JSON line on stdout for every audio request: {\"event\":\"audio\",\"bookId\":…,\"fileId\":…,\"range\":\"bytes=N-\"|null,\"status\":206}.")
    var reportAudio = false
    @Option(help: "Hold each audio response to this many bytes per second (at least 1024), so a download can be interrupted midway; by default audio goes as fast as the socket.")
    var audioRateLimit: Int?
    @Flag(help: "Take test controls on stdin, one JSON object a line (addBook, updateBook, deleteBook; for benches), answers on stdout.")
    var controlStdin = false
    @Option(help: "Whether accounts can be registered: open (kRPC signs them in at once), approval (they wait for an administrator; REST always does) or closed.")
    var registration: DemoServer.RegistrationMode = .closed

    mutating func run() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        var configuration = DemoServer.Configuration()
        configuration.host = host
        configuration.port = port
        configuration.bookCount = max(0, bookCount)
        configuration.serverName = serverName
        configuration.protocol = wireProtocol
        if let accessTokenLifetime, accessTokenLifetime > 0 { configuration.accessTokenLifetime = accessTokenLifetime }
        if pingInterval > 0 { configuration.krpc.pingInterval = pingInterval }
        if pingTimeout > 0 { configuration.krpc.pingTimeout = pingTimeout }
        if let heartbeatInterval, heartbeatInterval > 0 {
            configuration.heartbeatInterval = heartbeatInterval
            configuration.krpc.heartbeatInterval = heartbeatInterval
        }
        configuration.advertise = advertise
        if let chapterSeconds, chapterSeconds > 0 { configuration.chapterSeconds = chapterSeconds }
        configuration.filePerChapter = filePerChapter
        configuration.payload = payload
        configuration.shelvesPerUser = shelves
        configuration.registration = registration
        if let audioRateLimit {
            guard audioRateLimit >= DemoServer.minimumAudioRateLimit else {
                throw ValidationError("--audio-rate-limit must be at least \(DemoServer.minimumAudioRateLimit) bytes per second.")
            }
            configuration.audioRateLimit = audioRateLimit
        }
        if reportAudio {
            // One write(2) per line, shorter than PIPE_BUF: lines from
            // several connections never interleave.
            configuration.audioRequestObserver = { request in
                FileHandle.standardOutput.write(Data((request.jsonLine + "\n").utf8))
            }
        }
        if let adminEmail, let adminPassword {
            configuration.admin = DemoServer.Admin(email: adminEmail, password: adminPassword)
        }
        let server = DemoServer(configuration: configuration)
        let bound = try await server.start()
        // Set by start(); an IPv6 host comes back in brackets.
        guard let url = server.baseURL?.absoluteString else { throw ExitCode.failure }
        let line = #"{"event":"listening","url":"\#(url)","port":\#(bound)}"# + "\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        if controlStdin { DemoStdinControl.start(server, url: url) }

        // Run until SIGINT or SIGTERM.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let fired = DemoSignalLatch(done)
            for number in [SIGINT, SIGTERM] {
                let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
                source.setEventHandler { fired.fire() }
                source.resume()
                DemoSignalLatch.keep(source)
            }
        }
        await server.stop()
    }
}

/// `--protocol rest|krpc`.
extension DemoProtocol: ExpressibleByArgument {}

/// `--payload compact|realistic`.
extension DemoPayload: ExpressibleByArgument {}

/// `--registration open|approval|closed`.
extension DemoServer.RegistrationMode: ExpressibleByArgument {}

/// Resumes a continuation once, from whichever signal comes first.
final class DemoSignalLatch: @unchecked Sendable {
    // @unchecked Sendable: `continuation` is only touched under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    // nonisolated(unsafe): appended on the main thread only, before any signal can fire.

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = continuation
    }

    func fire() {
        lock.withLock {
            continuation?.resume()
            continuation = nil
        }
    }

    static func keep(_ source: any DispatchSourceSignal) {
        sources.append(source)
    }
}


