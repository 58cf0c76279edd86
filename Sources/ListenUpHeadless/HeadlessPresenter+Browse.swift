import Foundation
import JSONToolkit
import ListenUpCore

/// The headless form of browsing (signed in only, from any screen):
///
/// - `{"action":"browse","by":"series"|"authors"|"narrators"|"genres"|"tags"|"moods"|"collections"|"shelves"}`
///   prints `{"event":"browse","by":…,"count":N,"items":[{"id","name","bookCount"}…]}`:
///   every item, in the list's order (by name unless changed; genres of
///   the server's tree by their path, so parents come before children),
///   read from the library cache (offline too). Moods on a REST v1 (Go)
///   server, which has none, are an empty list;
/// - `{"action":"open","kind":"series"|"contributor"|"genre"|"tag"|"mood"|"collection"|"shelf","id":…}`
///   prints
///   `{"event":"page","kind":…,"id":…,"name":…,"books":[{"bookId","sequence"?,"role"?,"roles"?}…]}`,
///   and again whenever a sync or a live event changes what it shows; a
///   page the cache does not have is an `error` line with code `notFound`.
///   Series books come in sequence order (unnumbered last); a contributor's
///   books carry their roles (`role`: the first of author, narrator,
///   translator, then any other).
/// - `{"action":"home"}` reads the listening stats again and prints
///   `{"event":"home","continueListening":[{"bookId","title"}…],"stats":{"minutesByDay":[7 numbers, today last],
///   "streakDays","totalMinutes","topGenres":[{"name","minutes"}…],"cached"},"recentlyAdded":[{"bookId","title"}…]}`
///   (`stats` is null when the server keeps none and none were kept;
///   `cached` when the server did not answer and the last ones are shown).
extension HeadlessPresenter {
    static let browseUsage = "“browse” takes \"by\": series, authors, narrators, genres, tags, moods, collections or shelves; "
        + "“open” takes \"kind\": series, contributor, genre, tag, mood, collection or shelf, and an \"id\"; " + shelvesUsage

    func handleBrowse(_ command: HeadlessCommand) {
        guard let model = navigator.signedIn?.browse else {
            emitError(code: "notSignedIn", message: "Sign in to browse the library.")
            return
        }
        switch command {
        case .browse(let kind):
            if let items = model.items(kind) {
                emit(Self.browseLine(kind, items))
            } else {
                browseRequest = kind
                model.send(.show(kind))
            }
        case .open(let kind, let id):
            lastPageLine = nil
            lastMissingPage = nil
            model.send(.closeAll)
            model.send(.open(kind, id: id))
        case .home:
            guard let home = navigator.signedIn?.home else { return }
            homeRequestedAfter = home.refreshes
            home.refresh()
        case .discover:
            handleDiscover()
        case .createShelf, .renameShelf, .deleteShelf, .addToShelf, .removeFromShelf:
            handleShelves(command)
        default:
            break
        }
    }

    /// The session's browsing appeared or went: nothing asked of the old one stands.
    func browseReplaced() {
        browseRequest = nil
        lastPageLine = nil
        lastMissingPage = nil
    }

    /// Prints what a `browse` or `open` waits for, and a page open again
    /// when it changed.
    func browseChanged(_ model: BrowseModel) {
        // Followed on every read, so a list asked for later is seen when it arrives.
        _ = model.reads
        if let kind = browseRequest, let items = model.items(kind) {
            browseRequest = nil
            emit(Self.browseLine(kind, items))
        }
        if let missing = model.missingPage {
            if missing != lastMissingPage {
                lastMissingPage = missing
                emitError(code: "notFound", message: "The library has no \(missing.kind.rawValue) “\(missing.id)”.")
            }
        } else {
            lastMissingPage = nil
        }
        if let page = model.pages.last {
            let line = Self.pageLine(page)
            if line != lastPageLine {
                lastPageLine = line
                emit(line)
            }
        }
    }

    /// Prints Home once the refresh a `home` asked for has ended (with
    /// the stats kept from before when the server did not answer).
    func homeChanged(_ home: HomeModel) {
        // Read first, so every refresh is followed whether or not one is awaited.
        let refreshes = home.refreshes
        guard let after = homeRequestedAfter, refreshes > after else { return }
        homeRequestedAfter = nil
        let continueListening = navigator.player?.continueListening ?? []
        var stats: JSONValue = .null
        if let summary = home.summary {
            stats = ["minutesByDay": .array(summary.minutesByDay.map { .number(Double($0)) }),
                     "streakDays": .number(Double(summary.streakDays)), "totalMinutes": .number(Double(summary.totalMinutes)),
                     "topGenres": .array(summary.topGenres.map { ["name": .string($0.name), "minutes": .number(Double($0.minutes))] }),
                     "cached": .bool(summary.isCached)]
        }
        var line: [String: JSONValue] = [
            "event": "home",
            "continueListening": .array(continueListening.map { ["bookId": .string($0.bookID), "title": .string($0.title)] }),
            "stats": stats,
            "recentlyAdded": .array(home.recentlyAdded.map { ["bookId": .string($0.id), "title": .string($0.title)] }),
        ]
        line.merge(Self.homeShelves(navigator.signedIn?.shelves)) { $1 }
        emit(.object(line))
    }

    static func browseLine(_ kind: BrowseKind, _ items: [BrowseItem]) -> JSONValue {
        ["event": "browse", "by": .string(kind.rawValue), "count": .number(Double(items.count)),
         "items": .array(items.map { ["id": .string($0.id), "name": .string($0.name), "bookCount": .number(Double($0.bookCount))] })]
    }

    static func pageLine(_ page: BrowseModel.Page) -> JSONValue {
        let contents = page.contents
        let roleOrder = ["author", "narrator", "translator"]
        var line: [String: JSONValue] = [
            "event": "page", "kind": .string(contents.kind.rawValue), "id": .string(contents.id), "name": .string(contents.name)]
        if contents.kind == .shelf {
            line["description"] = .string(contents.description ?? "")
            if let owner = contents.owner { line["owner"] = .string(owner.name) }
            if let isPrivate = contents.isPrivate { line["private"] = .bool(isPrivate) }
        }
        line["books"] = .array(contents.entries.map { entry in
                    var book: [String: JSONValue] = ["bookId": .string(entry.bookID)]
                    if let sequence = entry.sequence { book["sequence"] = .string(sequence) }
                    if !entry.roles.isEmpty {
                        let first = roleOrder.first(where: entry.roles.contains) ?? entry.roles[0]
                        book["role"] = .string(first)
                        book["roles"] = .array(entry.roles.map(JSONValue.string))
                    }
                    return .object(book)
                })
        return .object(line)
    }
}
