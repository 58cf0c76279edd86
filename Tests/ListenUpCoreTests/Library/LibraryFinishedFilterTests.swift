import Foundation
import Testing
@testable import ListenUpCore

/// The library's Finished filter: finished books, the others, or both;
/// with the search and the Downloaded filter.
@MainActor
@Suite("Library: the Finished filter")
struct LibraryFinishedFilterTests {
    /// The preview library with its progress: book-9 (Dune) finished,
    /// book-2 and book-4 under way.
    func library() -> LibraryModel {
        let model = LibraryModel(dependencies: .test(), session: nil, load: false, send: { _ in })
        model.showForPreview(LibraryModel.previewBooks, status: .loaded, progress: LibraryModel.previewProgress)
        return model
    }

    @Test func finishedNotFinishedAndBoth() {
        let model = library()
        model.send(.finished(true))
        #expect(model.visible.map(\.id) == ["book-9"])
        model.send(.finished(false))
        #expect(model.visible.count == 9 && !model.visible.contains { $0.id == "book-9" }, "a book under way is not finished")
        model.send(.finished(nil))
        #expect(model.visible.count == 10)
    }

    @Test func theSearchAppliesWithinTheFilter() {
        let model = library()
        model.send(.finished(true))
        model.send(.search("piranesi"))
        #expect(model.visible.isEmpty, "a match that is not finished stays hidden")
        model.send(.search("dune"))
        #expect(model.visible.map(\.id) == ["book-9"])
    }
}
