import Foundation
import ListenUpCore
import ListenUpLive
import ListenUpTestSupport
import Synchronization
import Testing

/// REST v1's registration watch through the real client: a decision made
/// after the plain status read but before the stream subscribed is on
/// neither (the Go server's `connected` says pending whatever the status),
/// so the client reads the status once more when the stream opens.
@Suite("Registration status over REST v1")
struct RegistrationStreamTests {
    let logs = LogCapture()

    @Test func anApprovalBetweenTheReadAndTheStreamIsNotMissed() async throws {
        let reads = Mutex(0)
        @Sendable func envelope(_ data: String) -> Data { Data(#"{"v":1,"success":true,"data":\#(data)}"#.utf8) }
        let server = try await HostileServer.start { request in
            switch request.path {
            case "/api/v1/auth/registration-status/user-9":
                // Pending at the first read; approved by the time of the next.
                let read = reads.withLock { count in count += 1; return count }
                let status = read == 1 ? #""status":"pending","approved":false"# : #""status":"active","approved":true"#
                return .respond(status: 200, contentType: "application/json", body: envelope(#"{"user_id":"user-9",\#(status)}"#))
            case "/api/v1/auth/registration-status/user-9/stream":
                // The approval came before this stream: it says only `connected`, then ends.
                return .respond(status: 200, contentType: "text/event-stream",
                                body: Data("event: connected\ndata: {\"message\":\"Waiting for admin approval\",\"status\":\"pending\"}\n\n".utf8))
            default:
                return .respond(status: 404, contentType: "text/plain", body: Data("404 page not found\n".utf8))
            }
        }
        defer { Task { await server.stop() } }
        let client = APIClient(baseURL: server.baseURL, session: nil, transport: .live, sessions: .inMemory(),
                               deviceInfo: BrowseWireTests.device, logger: logs.logger)
        var seen: [RegistrationStatus] = []
        for try await status in try await client.registrationStatus(userID: "user-9") { seen.append(status) }
        #expect(seen == [.approved], "the approval, not a pending that never ends")
        #expect(reads.withLock { $0 } == 2, "read once before the stream, once when it opened")
    }
}
