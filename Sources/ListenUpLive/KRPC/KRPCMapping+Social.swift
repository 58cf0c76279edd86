import Foundation
import ListenUpCore
import ListenUpKRPC

/// The social domains over kRPC (addendum §2.1, §2.2): `public_profiles`
/// and `activities` are pulled like the other browse domains
/// (`KRPCServerConnection+Library.swift`). Payloads in
/// `ListenUpKRPC/Social.swift`.
extension KRPCMapping {
    /// A `public_profiles` row.
    static func publicProfile(_ payload: PublicProfileSyncPayload) -> PublicProfile {
        PublicProfile(id: payload.id, displayName: payload.displayName, avatarType: payload.avatarType,
                      booksFinished: payload.booksFinished, updatedAt: date(payload.updatedAt))
    }

    /// An `activities` row.
    static func activity(_ payload: ActivitySyncPayload) -> Activity {
        Activity(id: payload.id, userID: payload.userId, kind: payload.type, bookID: payload.bookId, isReread: payload.isReread,
                 durationMs: payload.durationMs, milestoneValue: payload.milestoneValue, milestoneUnit: payload.milestoneUnit,
                 shelfName: payload.shelfName, occurredAt: date(payload.occurredAt))
    }

    /// A `pullDomain("public_profiles")` page: a deleted user's tombstone deletes their profile.
    static func publicProfilesPage(_ page: SyncPage, since: Int64) throws(KRPCDecodingError) -> EntityPage<PublicProfile> {
        let payloads = try page.decodeItems(as: PublicProfileSyncPayload.self)
        return entityPage(page, since: since, rows: payloads.map { ($0.id, $0.revision, $0.isDeleted) },
                          live: payloads.filter { !$0.isDeleted && !$0.id.isEmpty }.map(publicProfile))
    }

    /// A `pullDomain("activities")` page: a tombstone (everything blanked)
    /// deletes the row by id; a live row without a user or kind is no activity.
    static func activitiesPage(_ page: SyncPage, since: Int64) throws(KRPCDecodingError) -> EntityPage<Activity> {
        let payloads = try page.decodeItems(as: ActivitySyncPayload.self)
        return entityPage(page, since: since, rows: payloads.map { ($0.id, $0.revision, $0.isDeleted) },
                          live: payloads.filter { !$0.isDeleted && !$0.id.isEmpty && !$0.userId.isEmpty && !$0.type.isEmpty }
                              .map(activity))
    }
}
