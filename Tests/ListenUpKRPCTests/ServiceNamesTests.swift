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
        // lookupInvite and claimInvite (§6.4).
        #expect(KRPCMethod.all.count == 31)
        #expect(Set(KRPCMethod.all).count == 31)
        #expect(KRPCMethod.all.allSatisfy { $0.service.mount != nil })
        #expect(KRPCMethod.all.filter(\.isStream) == [.observeEvents])
        #expect(KRPCMethod.login.service == .authServicePublic && KRPCMethod.login.name == "login")
        #expect(KRPCMethod.refreshSession.service.mount == .public)
        #expect(KRPCMethod.getRecentlyListened.description == "PlaybackProgressService.getRecentlyListened")
    }
}
