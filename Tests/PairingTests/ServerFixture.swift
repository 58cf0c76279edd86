import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ListenUpCore
import QRCode
import Testing
@testable import Pairing

/// A discovery server on 127.0.0.1 with a hand-moved clock and a scripted user
/// (a subscriber that records every event and answers each request with `accept`).
final class ServerFixture: Sendable {
    let temp: TempDirectory
    let clock = ManualClock()
    let server: DiscoveryServer
    let requests = NIOLockedValueBox<[PairingRequest]>([])
    let accept = NIOLockedValueBox(true)
    let events = NIOLockedValueBox<[PairingEvent]>([])
    private let user: Task<Void, Never>

    init(player: (any RemotePlayer)? = nil, _ configure: (inout DiscoveryServer.Configuration) -> Void = { _ in }) throws {
        temp = try TempDirectory()
        var configuration = DiscoveryServer.Configuration(desktopName: "Test Desk", appVersion: "9.9.9", bindAddresses: ["127.0.0.1"])
        configuration.advertise = false
        configuration.idleTimeout = 1
        configuration.requestTimeout = 2
        configure(&configuration)
        let server = try DiscoveryServer(storage: temp.storage(), configuration: configuration, clock: clock.clock, remotePlayer: player) {
            .init(activeRoute: "library", serverURL: "http://127.0.0.1:1/", userDisplayName: "Ada Reader")
        }
        let stream = server.events()
        let requests = requests, accept = accept, events = events
        user = Task { [weak server] in
            for await event in stream {
                events.withLockedValue { $0.append(event) }
                if case .request(let request) = event {
                    requests.withLockedValue { $0.append(request) }
                    server?.answer(request.id, accept: accept.withLockedValue { $0 })
                }
            }
        }
        self.server = server
    }

    deinit { user.cancel() }

    /// Waits (up to 5 s) until the events the scripted user has seen satisfy `condition`.
    func saw(_ condition: ([PairingEvent]) -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition(events.withLockedValue { $0 }) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// The device lists reported so far, by name.
    var devicesSeen: [[String]] {
        events.withLockedValue { $0 }.compactMap { if case .devicesChanged(let list) = $0 { list.map(\.name) } else { nil } }
    }

    /// Starts and opens pairing; returns the current URI.
    func open() async throws -> PairingURI {
        try await server.start()
        guard case .open(let uri, _, _) = try server.openPairing() else { throw PairingError.notPaired }
        return uri
    }

    var uri: PairingURI? {
        if case .open(let uri, _, _) = server.state { uri } else { nil }
    }

    var pin: String { "sha256//" + Data(server.fingerprint).base64EncodedString() }
    var base: String { "https://127.0.0.1:\(server.port ?? 0)" }

    /// POST /api/v1/pair with curl, pinned.
    func pair(session: String, code: String, name: String = "Phone") async throws -> (exit: Int32, status: Int, body: String) {
        let body = "{\"session\":\"\(session)\",\"code\":\"\(code)\",\"client_name\":\"\(name)\",\"client_model\":\"Test\"}"
        return try await curl(["-k", "--pinnedpubkey", pin, "-H", "Content-Type: application/json", "-d", body, base + "/api/v1/pair"])
    }
}

/// This process's open sockets, as `fd→socket:[inode]`.
func openSockets() -> [String] {
    descriptorTargets().filter { $0.contains("socket:[") }
}

/// The inodes of the sockets this process holds a descriptor of.
func ownSocketInodes() -> Set<String> {
    Set(descriptorTargets().compactMap { target -> String? in
        guard let range = target.range(of: "socket:[") else { return nil }
        return String(target[range.upperBound...].dropLast())
    })
}

/// The inodes of this process's TCP sockets on 127.0.0.1 and a local port
/// (listening or connected): a server's, to check later that they were
/// closed. Inodes, unlike port numbers, are not handed to the next socket,
/// which may be another suite's in this same process. The address counts
/// too: another suite's server on another loopback address may have the
/// same port number at the same time.
func socketInodes(onLocalPort port: Int) -> Set<String> {
    // /proc/net/tcp writes the address's bytes (network order) read as a
    // number in the host's order: 127.0.0.1 is 0100007F on little-endian.
    let local = String(format: "%08X:%04X", UInt32(0x7F00_0001).bigEndian, port)
    return Set(liveSockets(onLocalPorts: [port]).compactMap { line in
        let fields = line.split(separator: " ")
        return fields.count > 9 && fields[1] == local ? String(fields[9]) : nil
    })
}

/// Lines of /proc/net/tcp{,6} whose local port is in `ports` and whose state holds a
/// descriptor (LISTEN 0A, ESTABLISHED 01, CLOSE_WAIT 08).
func liveSockets(onLocalPorts ports: Set<Int>) -> [String] {
    // This process's sockets only: /proc/net/tcp lists the whole machine's,
    // and another test process's server may be given one of these
    // (ephemeral) port numbers after the test let it go.
    let own = ownSocketInodes()
    return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap { path -> [String] in
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count > 9, let port = fields[1].split(separator: ":").last.flatMap({ Int($0, radix: 16) }),
                  ports.contains(port), ["0A", "01", "08"].contains(String(fields[3])), own.contains(String(fields[9])) else { return nil }
            return String(line)
        }
    }
}

func descriptorTargets() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).sorted().map { fd in
        fd + "→" + ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd)) ?? "?")
    }
}
