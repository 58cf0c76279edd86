import Foundation

/// A large library's first screen (``LibraryReadAhead/FirstScreen``): its
/// first books, shown while the whole library is read.
extension LibraryModel {
    /// The books shown are a large library's first screen.
    public var isShowingFirstScreen: Bool { firstScreenOf != nil }

    /// How many books the library holds (``books``, or the whole library's
    /// count while its first screen is shown).
    public var bookCount: Int { firstScreenOf ?? books.count }

    /// Shows the first books of a large library while the rest is read.
    /// Not the cache loaded: the desktop search, live changes and the sync
    /// wait for the whole read, which replaces these books, and the cache's
    /// version stays, so that read is shown as soon as it is done.
    func showFirstScreen(_ contents: LibraryReadAhead.Contents) {
        guard !hasLoadedCache else { return }
        index = contents.index
        order = contents.sort == sort ? contents.order : index.order(by: sort)
        progress = contents.progress
        books = order.map { book(at: $0) }
        refilter()
        firstScreenOf = contents.libraryCount
        if !books.isEmpty, status == .loading { status = .loaded }
    }
}
