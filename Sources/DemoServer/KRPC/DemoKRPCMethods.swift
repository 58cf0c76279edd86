import ListenUpKRPC

/// One method the demo server implements.
struct DemoKRPCMethod: Sendable {
    /// Whether it returns a `Flow` (answered by stream messages, and
    /// refused without the `-32763` marker).
    var isFlow = false
    /// Runs the call: decodes its arguments, answers.
    var run: @Sendable (DemoKRPCService, DemoKRPCCall) throws -> DemoKRPCOutcome
}

/// The services and methods the demo implements, by simple service name
/// (`com.calypsan.listenup.api.` + name is the `serviceType`).
///
/// Which services exist on which mount is ``KRPCServiceType``'s list (§1.1):
/// a call to a registered service gets a `CallException` for a method
/// missing here, while a service that is not on the mount gets no reply at all (§2.7).
enum DemoKRPCMethods {
    private static let table: [String: [String: DemoKRPCMethod]] = [
        "InstanceService": [
            "getServerInfo": DemoKRPCMethod { service, _ in .result(service.getServerInfo()) },
        ],
        "AuthServicePublic": [
            "setupRoot": DemoKRPCMethod { try $0.setupRoot($1) },
            "login": DemoKRPCMethod { try $0.login($1) },
            "register": DemoKRPCMethod { try $0.register($1) },
            "observeRegistrationStatus": DemoKRPCMethod(isFlow: true) { try $0.observeRegistrationStatus($1) },
            "observeRegistrationPolicy": DemoKRPCMethod(isFlow: true) { try $0.observeRegistrationPolicy($1) },
            "refreshSession": DemoKRPCMethod { try $0.refreshSession($1) },
            "requestPasswordReset": DemoKRPCMethod { try $0.requestPasswordReset($1) },
            "observePasswordResetStatus": DemoKRPCMethod(isFlow: true) { try $0.observePasswordResetStatus($1) },
            "completePasswordReset": DemoKRPCMethod { try $0.completePasswordReset($1) },
        ],
        "InviteServicePublic": [
            "lookupInvite": DemoKRPCMethod { try $0.lookupInvite($1) },
            "claimInvite": DemoKRPCMethod { try $0.claimInvite($1) },
        ],
        "AuthServiceAuthed": [
            "logout": DemoKRPCMethod { try $0.logout($1) },
            "logoutAll": DemoKRPCMethod { try $0.logoutAll($1) },
            "listSessions": DemoKRPCMethod { try $0.listSessions($1) },
            "revokeSession": DemoKRPCMethod { try $0.revokeSession($1) },
            "currentUser": DemoKRPCMethod { try $0.currentUser($1) },
        ],
        "SyncStreamService": [
            "listDomains": DemoKRPCMethod { _, _ in .result(DemoKRPCService.listDomains()) },
            "pullDomain": DemoKRPCMethod { try $0.pullDomain($1) },
            "pullByIds": DemoKRPCMethod { try $0.pullByIds($1) },
            "digest": DemoKRPCMethod { try $0.digest($1) },
            "observeEvents": DemoKRPCMethod(isFlow: true) { try $0.observeEvents($1) },
        ],
        "PlaybackService": [
            "prepare": DemoKRPCMethod { try $0.prepare($1) },
            "getPosition": DemoKRPCMethod { try $0.getPosition($1) },
            "recordPosition": DemoKRPCMethod { try $0.recordPosition($1) },
            "recordListeningEvent": DemoKRPCMethod { try $0.recordListeningEvent($1) },
            "getStats": DemoKRPCMethod { try $0.getStats($1) },
        ],
        "PlaybackProgressService": [
            "getRecentlyListened": DemoKRPCMethod { try $0.positionList($1, kind: .recentlyListened) },
            "getCompletedBooks": DemoKRPCMethod { try $0.positionList($1, kind: .completed) },
            "listProgress": DemoKRPCMethod { try $0.positionList($1, kind: .all) },
            "getProgressBatch": DemoKRPCMethod { try $0.getProgressBatch($1) },
        ],
        "BookService": [
            "getBook": DemoKRPCMethod { try $0.getBook($1) },
        ],
        "ShelfService": [
            "createShelf": DemoKRPCMethod { try $0.createShelf($1) },
            "updateShelf": DemoKRPCMethod { try $0.updateShelf($1) },
            "deleteShelf": DemoKRPCMethod { try $0.deleteShelf($1) },
            "addBookToShelf": DemoKRPCMethod { try $0.addBookToShelf($1) },
            "removeBookFromShelf": DemoKRPCMethod { try $0.removeBookFromShelf($1) },
            "listMyShelves": DemoKRPCMethod { try $0.listMyShelves($1) },
            "getShelf": DemoKRPCMethod { try $0.getShelf($1) },
            "discoverShelves": DemoKRPCMethod { try $0.discoverShelves($1) },
        ],
        "SocialService": [
            "currentlyListening": DemoKRPCMethod { try $0.currentlyListening($1) },
        ],
        "UserPreferencesService": [
            "getMyPreferences": DemoKRPCMethod { try $0.getMyPreferences($1) },
            "updateMyPreferences": DemoKRPCMethod { try $0.updateMyPreferences($1) },
        ],
    ]

    /// The simple name of a ListenUp `serviceType`, if it is served on `mount`.
    static func serviceName(_ serviceType: String, on mount: KRPCMount) -> String? {
        let type = KRPCServiceType(rawValue: serviceType)
        guard type.mount == mount else { return nil }
        return String(serviceType.dropFirst("com.calypsan.listenup.api.".count))
    }

    /// The implementation of `method` of the service named `serviceName`, if any.
    static func method(_ method: String, of serviceName: String) -> DemoKRPCMethod? {
        table[serviceName]?[method]
    }
}
