import Foundation
import JSONToolkit
import ListenUpCore

/// Shelves headless (signed in only, from any screen):
///
/// - `{"action":"browse","by":"shelves"}` lists the user's shelves as any
///   browse list; `{"action":"open","kind":"shelf","id":…}` prints the
///   shelf's `page` (books in the shelf's order; `"owner"` on someone
///   else's), again on every change (HeadlessPresenter+Browse.swift).
/// - `{"action":"createShelf","name":…,"description"?:…,"private"?:bool,"bookId"?:…}`,
///   `{"action":"renameShelf","id","name","description"?,"private"?}`,
///   `{"action":"deleteShelf","id"}`, `{"action":"addToShelf","id","bookId"}`,
///   `{"action":"removeFromShelf","id","bookId"}` print
///   `{"event":"shelfChanged","action":…,"id":…}` once the server took the
///   change (the cache follows within a sync), or an `error` line with code
///   `invalidName` (said before anything is sent), `notFound`, `forbidden`
///   or the server error's.
/// - `home` carries `"shelves":[{"id","name","bookCount"}…]` (the user's)
///   and `"discoverShelves":[{"id","name","owner","bookCount"}…]`.
extension HeadlessPresenter {
    static let shelvesUsage = "“createShelf” takes a \"name\"; “renameShelf” an \"id\" and a \"name\"; “deleteShelf” an \"id\"; "
        + "“addToShelf” and “removeFromShelf” an \"id\" and a \"bookId\"."

    func handleShelves(_ command: HeadlessCommand) {
        guard let shelves = navigator.signedIn?.shelves else {
            emitError(code: "notSignedIn", message: "Sign in to change shelves.")
            return
        }
        let intent: ShelvesModel.Intent
        var shelfID: String?
        switch command {
        case .createShelf(let name, let description, let isPrivate, let bookID):
            intent = .create(name: name, description: description, isPrivate: isPrivate, addingBook: bookID)
        case .renameShelf(let id, let name, let description, let isPrivate):
            let shelf = shelves.shelf(id: id)
            intent = .update(id: id, name: name, description: description ?? shelf?.description ?? "",
                             isPrivate: isPrivate ?? shelf?.isPrivate ?? false)
            shelfID = id
        case .deleteShelf(let id):
            intent = .delete(id: id)
            shelfID = id
        case .addToShelf(let id, let bookID):
            intent = .add(bookID: bookID, shelfID: id)
            shelfID = id
        case .removeFromShelf(let id, let bookID):
            intent = .remove(bookID: bookID, shelfID: id)
            shelfID = id
        default:
            return
        }
        let action = command.action.rawValue
        Task { [weak self] in
            let result = await shelves.perform(intent)
            guard let self else { return }
            switch result {
            case .success(let shelf):
                self.emit(["event": "shelfChanged", "action": .string(action), "id": .string(shelf?.id ?? shelfID ?? "")])
            case .failure(let problem):
                self.emitError(code: problem.code, message: problem.message)
            }
        }
    }

    /// Home's shelves: the user's, and others' to discover.
    static func homeShelves(_ shelves: ShelvesModel?) -> [String: JSONValue] {
        let mine = shelves?.mine ?? []
        let discovered = shelves?.discovered ?? []
        return ["shelves": .array(mine.map { ["id": .string($0.id), "name": .string($0.name), "bookCount": .number(Double($0.bookIDs.count))] }),
                "discoverShelves": .array(discovered.map {
                    ["id": .string($0.id), "name": .string($0.name), "owner": .string($0.owner?.name ?? ""),
                     "bookCount": .number(Double($0.bookIDs.count))]
                })]
    }
}
