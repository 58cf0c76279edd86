import Foundation
import JSONToolkit
import ListenUpCore

extension LibraryModel: HeadlessScreen {
    var snapshot: JSONValue {
        var state: [String: JSONValue] = [
            "bookCount": .number(Double(books.count)),
            "visibleCount": .number(Double(visible.count)),
            "query": .string(query),
            "sort": .string(sort.rawValue),
            "layout": .string(layout.rawValue),
            "filter": ["downloaded": .bool(filter == .downloaded), "finished": finishedFilter.map(JSONValue.bool) ?? .null],
            "user": .optional(session?.displayName),
            "server": .optional(session?.serverURL.absoluteString),
            "books": .array(visible.prefix(20).map { book in
                var entry: [String: JSONValue] = ["id": .string(book.id), "title": .string(book.title), "authors": .string(book.authors)]
                if let progress = book.progress { entry["progress"] = .number(progress.fraction) }
                entry["finished"] = .bool(book.progress?.finished == true)
                return .object(entry)
            }),
            "offline": .bool(isOffline),
            "series": .array((browse?.seriesMatches ?? []).map { ["id": .string($0.id), "name": .string($0.name)] }),
            "people": .array((browse?.peopleMatches ?? []).map { ["id": .string($0.id), "name": .string($0.name)] }),
            "live": .bool(isLive),
        ]
        if let syncProgress {
            state["sync"] = ["stored": .number(Double(syncProgress.stored)),
                             "expected": syncProgress.expected.map { .number(Double($0)) } ?? .null]
        }
        if let selection {
            state["selected"] = [
                "id": .string(selection.book.id), "title": .string(selection.book.title),
                "description": .string(selection.description),
                "chapters": .number(Double(selection.chapters.count)),
                "contributors": .array(selection.contributors.map { .string("\($0.name) (\($0.roles.joined(separator: ", ")))") }),
            ]
        }
        switch status {
        case .loading: state["status"] = "loading"
        case .loaded: state["status"] = "loaded"
        case .failed(let code, let message):
            state.recordFailure(code: code, message: message)
        }
        return .object(state)
    }

    /// Headless: `reload`, `logout`, `search {query}`, `sort {by}`,
    /// `layout {as}`, `select {id}` (null closes), `filter {finished:
    /// true|false|null, downloaded: true|false}` (each one given changes).
    func handle(_ command: HeadlessCommand) -> Bool {
        switch command {
        case .reload: send(.reload)
        case .logout: send(.signOut)
        case .search(let query): send(.search(query))
        case .sort(let by): send(.sort(by))
        case .layout(let layout): send(.layout(layout))
        case .select(let id): send(.select(id))
        case .filter(let finished, let downloaded):
            if let finished { send(.finished(finished)) }
            if let downloaded { send(.filter(downloaded ? .downloaded : .all)) }
        default: return false
        }
        return true
    }
}
