import Foundation
import ListenUpAPI
import ListenUpKRPC
import ListenUpTestSupport
import Logging
import Testing
@testable import ListenUpCore
@testable import ListenUpLive

/// What this device says about itself over kRPC: `deviceInfo` fields cut to
/// the server's 128 UTF-16 code units (a long name of emoji still signs in),
/// and listening events labelled with the device's name, not its
/// installation id.
@Suite("kRPC device fields")
struct KRPCDeviceFieldsTests {
    let logs = LogCapture()
    /// 1 + 2 × 100 UTF-16 code units: over the limit only when counted as Kotlin counts.
    static let longName = "a" + String(repeating: "🎧", count: 100)

    /// The `request` object of a call's arguments.
    static func request(_ call: ScriptedKRPCServer.Call) -> [String: Any] {
        let object = try? JSONSerialization.jsonObject(with: Data(call.data.data.utf8)) as? [String: Any]
        return object?["request"] as? [String: Any] ?? [:]
    }

    @Test func aLongAstralDeviceNameIsCutToTheServersLimitAndSignsIn() async throws {
        let server = try await ScriptedKRPCServer.start { exchange in
            guard exchange.method == "login" else { return }
            try await exchange.success(Canned.authSession(1))
        }
        defer { Task { await server.stop() } }
        let device = ListenUpAPI.DeviceInfo(deviceType: "desktop", platform: "Linux", platformVersion: Self.longName, clientName: "ListenUp for Linux",
                                            clientVersion: "0.1.0", deviceName: Self.longName, deviceModel: Self.longName)
        let client = KRPCServerConnection(baseURL: server.baseURL, session: nil, transport: .live, sessions: .inMemory(), deviceInfo: device,
                                          logger: logs.logger)
        try await withDeadline {
            _ = try await client.login(email: "ada@example.com", password: "analytical-engine")
        }
        let sent = try #require(server.calls.first { $0.method == "login" })
        let info = try #require(Self.request(sent)["deviceInfo"] as? [String: Any])
        let expected = "a" + String(repeating: "🎧", count: 63)
        for field in ["deviceName", "deviceModel", "platformVersion"] {
            let value = try #require(info[field] as? String, "\(field)")
            #expect(value == expected, "\(field)")
            #expect(value.utf16.count <= 128, "\(field)")
        }
    }

    @Test func listeningEventsCarryTheDevicesNameAsTheirLabel() async throws {
        let server = try await ScriptedKRPCServer.start { exchange in
            switch exchange.method {
            case "recordListeningEvent":
                try await exchange.success(ListeningEventSyncPayload(
                    id: "span-1", bookId: "book-1", startPositionMs: 0, endPositionMs: 2_000, startedAt: 1, endedAt: 2, playbackSpeed: 1,
                    tz: "UTC", deviceLabel: nil, revision: 7, updatedAt: 2, createdAt: 2))
            case "recordPosition":
                try await exchange.success(PlaybackPositionSyncPayload(
                    id: "pos-1", bookId: "book-1", positionMs: 2_000, lastPlayedAt: 2, finished: false, playbackSpeed: 1,
                    currentChapterId: nil, revision: 8, updatedAt: 2, createdAt: 2))
            default:
                return
            }
        }
        defer { Task { await server.stop() } }
        func label(for device: ListenUpAPI.DeviceInfo) async throws -> Any? {
            let client = KRPCServerConnection(baseURL: server.baseURL, session: Canned.storedSession(server.baseURL), transport: .live,
                                              sessions: .inMemory(), deviceInfo: device, logger: logs.logger)
            let span = ListeningSpan(id: "span-1", bookID: "book-1", start: 0, end: 2_000, startedAt: Date(timeIntervalSince1970: 1),
                                     endedAt: Date(timeIntervalSince1970: 2), rate: 1, deviceID: "installation-7f3e")
            _ = try await withDeadline { try await client.sendListening([span]) }
            let sent = try #require(server.calls.last { $0.method == "recordListeningEvent" })
            return Self.request(sent)["deviceLabel"]
        }
        #expect(try await label(for: .init(deviceType: "desktop", platform: "Linux", deviceName: "ada-laptop", deviceModel: "ThinkPad"))
            as? String == "ada-laptop")
        #expect(try await label(for: .init(deviceType: "desktop", platform: "Linux", deviceModel: "ThinkPad")) as? String == "ThinkPad")
        #expect(try await label(for: .init(deviceType: "desktop", platform: "Linux", deviceName: Self.longName)) as? String
            == "a" + String(repeating: "🎧", count: 63))
        #expect(try await label(for: .init(deviceType: "desktop", platform: "Linux")) is NSNull, "no name, no model: null, never the installation id")
    }
}
