import Testing
@testable import ListenUpKRPC

/// Control frames of `observeEvents` (§3.4); unknown ones are tolerated.
@Suite("SyncControl")
struct SyncControlTests {
    static func control(_ json: String) throws -> SyncControl {
        try KRPCJSON.decode(SyncControl.self, from: json)
    }

    @Test func accessChangedWithAFutureKey() throws {
        #expect(try Self.control(try Fixture.text("sync_control_access_changed_future_key.json"))
            == .accessChanged(scope: AccessScope(collectionIds: ["c"], bookIds: [])))
    }

    @Test(arguments: [
        (#"{"type":"SyncControl.Heartbeat"}"#, SyncControl.heartbeat),
        (#"{"type":"SyncControl.CursorStale","lastKnownRevision":999}"#, .cursorStale(lastKnownRevision: 999)),
        (#"{"type":"SyncControl.AccessChanged"}"#, .accessChanged(scope: nil)),
        (#"{"type":"SyncControl.AccessChanged","scope":null}"#, .accessChanged(scope: nil)),
        (#"{"type":"SyncControl.AccessChanged","scope":{"bookIds":["b"]}}"#, .accessChanged(scope: AccessScope(bookIds: ["b"]))),
        (#"{"type":"SyncControl.UserDeleted"}"#, .userDeleted(reason: nil)),
        (#"{"type":"SyncControl.UserDeleted","reason":"removed by admin"}"#, .userDeleted(reason: "removed by admin")),
        (#"{"type":"SyncControl.StreamError","error":{"type":"AppError.InternalError","correlationId":"cid-xyz","cause":"NPE"}}"#,
         .streamError(AppError(type: "AppError.InternalError", correlationId: "cid-xyz", fields: ["cause": .string("NPE")]))),
        (#"{"type":"SyncControl.ActiveSessionsChanged"}"#, .activeSessionsChanged),
        (#"{"type":"SyncControl.ActivityChanged"}"#, .activityChanged),
        (#"{"type":"SyncControl.PreferencesChanged"}"#, .preferencesChanged),
        (#"{"type":"SyncControl.ServerInfoChanged"}"#, .serverInfoChanged),
        (#"{"type":"SyncControl.LibraryDataChanged"}"#, .libraryDataChanged),
        (#"{"type":"SyncControl.Teleported","where":"moon"}"#, .unknown(type: "SyncControl.Teleported")),
    ])
    func everyControlType(_ json: String, _ expected: SyncControl) throws {
        #expect(try Self.control(json) == expected)
    }

    @Test func malformedControlsThrow() {
        #expect(throws: KRPCDecodingError.missingKey(path: "lastKnownRevision")) {
            try Self.control(#"{"type":"SyncControl.CursorStale"}"#)
        }
        #expect(throws: KRPCDecodingError.missingKey(path: "type")) { try Self.control("{}") }
    }
}
