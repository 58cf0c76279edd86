import Foundation

extension LibraryModel {
    /// The preview shelf with books (`library:shelf-page`).
    nonisolated static let previewShelfID = "shelf-summer"
    /// A neighbour's shelf (`library:shelf-page-others`).
    nonisolated static let previewOthersShelfID = "shelf-mara"

    /// Two shelves of the user (their books as kRPC rows) and a
    /// neighbour's, as last discovered, in `store`.
    nonisolated static func addPreviewShelves(to store: InMemoryLibraryStore) throws {
        let updated = Date(timeIntervalSince1970: 1_750_000_000)
        try store.apply(.shelves(EntityPage(entities: [
            Shelf(id: "shelf-to-read", name: "To Read", isPrivate: false, updatedAt: updated),
            Shelf(id: previewShelfID, name: "Summer Holiday", description: "Long books for long days by the sea.", isPrivate: false,
                  updatedAt: updated),
        ])), state: LibrarySyncState())
        let rows = [("shelf-to-read", "book-1"), ("shelf-to-read", "book-4"), (previewShelfID, "book-0"), (previewShelfID, "book-9"),
                    (previewShelfID, "book-2")]
        try store.apply(.shelfBooks(EntityPage(entities: rows.enumerated().map { index, row in
            ShelfBook(id: "row-\(index)", shelfID: row.0, bookID: row.1, sortOrder: index, updatedAt: updated)
        })), state: LibrarySyncState())
        try store.saveDiscoveredShelves([
            Shelf(id: previewOthersShelfID, name: "Mara's Favourites", description: "Books I keep lending out.", isPrivate: false,
                  bookIDs: ["book-3", "book-5", "book-6"], updatedAt: updated, owner: ShelfOwner(id: "user-mara", name: "Mara Lindqvist")),
        ])
    }
}

/// What a shelves preview opens over the library page.
public enum ShelfPreviewOverlay: Sendable {
    /// A book's *Add to Shelf* popover.
    case addToShelf
    /// The New Shelf dialog.
    case newShelf
}
