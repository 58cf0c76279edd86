import Foundation
import ListenUpAPI
import ListenUpLive
import ListenUpTestSupport
import Observation
import Testing
@testable import ListenUpCore

/// How the downloads reach the fronts: progress apart from the statuses,
/// and the saved downloads read off the main actor.
extension DownloadsModelTests {
    @Test func progressIsPublishedWhileAFileIsFetchedApartFromTheStatuses() async throws {
        let rig = try await rig { _, fetcher in
            fetcher.script("book-0-b", .hold)
        }
        rig.model.send(.download(bookID: "book-0"))
        await settle { rig.model.items["book-0"]?.status == .downloading }
        // What follows the statuses only (the Downloaded filter, the badges).
        let statusChanges = LockedValue(0)
        withObservationTracking { _ = rig.model.items } onChange: { statusChanges.withLock { $0 += 1 } }
        let first = Int64(rig.sources["book-0-a"]?.count ?? 0)
        await settle { rig.model.item("book-0")?.bytes == first }
        #expect(rig.model.item("book-0")?.bytes == first)
        #expect(rig.model.progress["book-0"] == first)
        #expect(rig.model.currentItems["book-0"]?.bytes == first)
        #expect(rig.model.item("book-0")?.status == .downloading)
        #expect(statusChanges.value == 0, "a progress tick does not wake what follows the statuses")
        rig.fetcher.release()
        await settle { rig.model.items["book-0"]?.status == .done }
        #expect(statusChanges.value == 1)
        #expect(rig.model.progress.isEmpty)
        #expect(rig.model.items["book-0"]?.bytes == rig.model.items["book-0"]?.totalBytes)
    }

    @Test func theSavedDownloadsAreReadOffTheMainActorAndIntentsSentMeanwhileWait() async throws {
        let rig = try await rig()
        rig.model.send(.download(bookID: "book-0"))
        await settle { rig.model.items["book-0"]?.status == .done }
        // The app starts again: the manifests are read in a task, and a
        // remove sent before they are shown is applied after them.
        let again = DownloadsModel(dependencies: rig.dependencies, session: rig.session, store: rig.store, configuration: Self.quick)
        #expect(again.items.isEmpty, "nothing read on the main actor")
        again.send(.remove(bookID: "book-0"))
        await again.restored()
        #expect(again.items["book-0"] == nil, "the remove came after the restore, not before it")
        await settle { (try? rig.store.downloads().isEmpty) == true }
        #expect(try rig.store.downloads().isEmpty, "and deleted the folder (off the main actor)")
    }
}
