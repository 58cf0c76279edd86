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
    @Option(help: "Seconds an access token lives.") var accessTokenLifetime: Double = 30 * 24 * 3600
    @Flag(help: "Announce the server on the LAN (_listenup._tcp through Avahi).") var advertise = false
    @Option(help: "Make every chapter this many seconds long (short books for tests); by default books last 1 to 11 hours.")
    var chapterSeconds: Double?

    mutating func run() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        var configuration = DemoServer.Configuration()
        configuration.host = host
        configuration.port = port
        configuration.bookCount = max(0, bookCount)
        configuration.serverName = serverName
        configuration.accessTokenLifetime = accessTokenLifetime
        configuration.advertise = advertise
        if let chapterSeconds, chapterSeconds > 0 { configuration.chapterSeconds = chapterSeconds }
        if let adminEmail, let adminPassword {
            configuration.admin = DemoServer.Admin(email: adminEmail, password: adminPassword)
        }
        let server = DemoServer(configuration: configuration)
        let bound = try await server.start()
        let line = #"{"event":"listening","url":"http://\#(host):\#(bound)","port":\#(bound)}"# + "\n"
        FileHandle.standardOutput.write(Data(line.utf8))

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


