import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// The cells: the list-item factories' handlers, binding a cell to its book,
/// and covers (decoded off the main thread, kept in `textures`).
extension BookCollectionView {
    func install(factory: OpaquePointer?, style: BookCell.Style) {
        guard let factory else { return }
        connections.append(factory.connect(.listItemSetup) { [weak self] item in
            guard let self else { return }
            self.cellsMade += 1
            let cell = BookCell(style: style)
            cell.onPlay = self.onPlay
            cell.onDownload = self.onDownload
            gtk_list_item_set_child(item, cell.widget)
            self.cells[Int(bitPattern: item)] = cell
        })
        connections.append(factory.connect(.listItemBind) { [weak self] item in
            guard let self else { return }
            let key = Int(bitPattern: item)
            self.waiting.remove(key)
            guard let cell = self.cells[key], let book = self.book(at: key) else { return }
            self.bind(cell, to: book)
        })
        connections.append(factory.connect(.listItemUnbind) { [weak self] item in
            guard let self else { return }
            self.waiting.remove(Int(bitPattern: item))
            self.cells[Int(bitPattern: item)]?.unbind()
        })
        connections.append(factory.connect(.listItemTeardown) { [weak self] item in
            guard let self else { return }
            self.waiting.remove(Int(bitPattern: item))
            if let cell = self.cells.removeValue(forKey: Int(bitPattern: item)) {
                self.coverless.remove(ObjectIdentifier(cell))
                cell.unbind()
            }
        })
    }

    /// Shows `book` in `cell`, with its cover when it is decoded already;
    /// otherwise the cover is fetched and decoded now, or, while the cells
    /// off screen are being bound after a search, once typing pauses.
    func bind(_ cell: BookCell, to book: LibraryModel.Book) {
        cell.coverTask?.cancel()
        cell.bind(book, download: downloadsShown[book.id])
        coverless.remove(ObjectIdentifier(cell))
        if let texture = textures[CoverTextureCache.key(book, size: Self.pixels(of: cell.cover))] {
            cell.cover.show(texture)
            return
        }
        guard book.hasCover else { return }
        if bindingOffScreen {
            coverless.insert(ObjectIdentifier(cell))
            return
        }
        fetchCover(of: book, into: cell)
    }

    func fetchCover(of book: LibraryModel.Book, into cell: BookCell) {
        let pixels = Self.pixels(of: cell.cover)
        cell.coverTask = Task { [weak self, weak cell] in
            guard let texture = await self?.decodedCover(of: book, pixels: pixels),
                  !Task.isCancelled, let cell, cell.book?.id == book.id else { return }
            cell.cover.show(texture)
        }
    }

    /// `book`'s cover at `source` size fetched (through the model's
    /// caches), decoded at `pixels` off the main thread and kept in
    /// `textures`; nil when it has none, it cannot be read, or the task was
    /// cancelled.
    func decodedCover(of book: LibraryModel.Book, pixels: Int, source: CoverSize = .grid) async -> CoverTexture? {
        guard let data = await model.cover(for: book, size: source), !Task.isCancelled,
              let texture = await CoverTexture.decode(data.bytes, size: pixels) else { return nil }
        textures[CoverTextureCache.key(book, size: pixels, source: source)] = texture
        return texture
    }

    /// The cover's size in device pixels.
    static func pixels(of cover: CoverView) -> Int {
        cover.size * Int(max(1, gtk_widget_get_scale_factor(cover.widget)))
    }

    /// A cover for `book` at the view's size, through the same caches,
    /// fetched at `source` size (the details panel: ``CoverSize/large``).
    func loadCover(for book: LibraryModel.Book, into view: CoverView, source: CoverSize = .large) -> Task<Void, Never>? {
        view.showPlaceholder(for: book.title)
        let pixels = Self.pixels(of: view)
        if let texture = textures[CoverTextureCache.key(book, size: pixels, source: source)] {
            view.show(texture)
            return nil
        }
        guard book.hasCover else { return nil }
        return Task { [weak self, weak view] in
            guard let texture = await self?.decodedCover(of: book, pixels: pixels, source: source), !Task.isCancelled else { return }
            view?.show(texture)
        }
    }
}
