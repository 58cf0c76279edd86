import Testing
@testable import ListenUpKRPC

/// Service fq-names, their mounts, and the method table (§1.1, §3).
@Suite("Service names")
struct ServiceNamesTests {
    @Test func mountsOfTheServicesUsed() {
        #expect(KRPCServiceType.instanceService.rawValue == "com.calypsan.listenup.api.InstanceService")
        #expect(KRPCServiceType.instanceService.mount == .public)
        #expect(KRPCServiceType.authServicePublic.mount == .public)
        #expect(KRPCServiceType.authServiceAuthed.mount == .authed)
        #expect(KRPCServiceType.syncStreamService.mount == .authed)
        #expect(KRPCServiceType.playbackService.mount == .authed)
        #expect(KRPCServiceType.playbackProgressService.mount == .authed)
        #expect(KRPCServiceType.bookService.mount == .authed)
        #expect(KRPCServiceType(rawValue: "kotlinx.rpc.krpc.test.ProtocolTestService").mount == nil)
        #expect(KRPCMount.authed.path == "/api/rpc/authed")
        #expect(KRPCServiceType.publicServiceNames.isDisjoint(with: KRPCServiceType.authedServiceNames))
        #expect(KRPCServiceType.authedServiceNames.count == 24)
    }

    @Test func methodTable() {
        // 20, ShelfService's 7 (addendum §3.6), listSessions and revokeSession (§6.5),
        // lookupInvite and claimInvite (§6.4), SocialService.currentlyListening (§3.7).
        #expect(KRPCMethod.all.count == 32)
        #expect(Set(KRPCMethod.all).count == 32)
        #expect(KRPCMethod.currentlyListening.service.mount == .authed)
        #expect(KRPCMethod.all.allSatisfy { $0.service.mount != nil })
        #expect(KRPCMethod.all.filter(\.isStream) == [.observeEvents])
        #expect(KRPCMethod.login.service == .authServicePublic && KRPCMethod.login.name == "login")
        #expect(KRPCMethod.refreshSession.service.mount == .public)
        #expect(KRPCMethod.getRecentlyListened.description == "PlaybackProgressService.getRecentlyListened")
    }
}

/// `CurrentlyListeningSession` as kotlinx.serialization writes it
/// (upstream `api/dto/social/SocialDtos.kt`: camelCase names, every field present).
@Suite("Currently listening payload")
struct CurrentlyListeningPayloadTests {
    @Test func decodesTheServersRows() throws {
        let json = #"[{"userId":"u-2","displayName":"Grace Hopper","avatarType":"auto","bookId":"b-9","lastActiveAtMs":1790000000000,"isLive":true},"#
            + #"{"userId":"u-3","displayName":"Mara","avatarType":"image","bookId":"b-1","lastActiveAtMs":1789990000000,"isLive":false}]"#
        let rows = try KRPCJSON.decode([CurrentlyListeningSessionDTO].self, from: json)
        #expect(rows == [
            CurrentlyListeningSessionDTO(userId: "u-2", displayName: "Grace Hopper", avatarType: "auto", bookId: "b-9",
                                         lastActiveAtMs: 1_790_000_000_000, isLive: true),
            CurrentlyListeningSessionDTO(userId: "u-3", displayName: "Mara", avatarType: "image", bookId: "b-1",
                                         lastActiveAtMs: 1_789_990_000_000, isLive: false),
        ])
        #expect(try KRPCJSON.encode(rows[0]).contains(#""lastActiveAtMs":1790000000000"#))
    }
}
