import Foundation
import JSONToolkit
import ListenUpCore

/// One command of the headless front: a line of JSON on stdin,
/// `{"action":"…", …arguments}` (README, "Headless mode", has the table).
///
/// Every command the front takes is a case here, decoded in one place (``init(action:arguments:)``)
/// with its arguments checked and typed, so the screens, the player, the downloads and the
/// preferences switch over cases, never over action strings. Encoding writes the same line back
/// (the tests use it). Lenient where the protocol always was: a missing `url`, `email`,
/// `password` or `query` is an empty string, a `select` without a string `id` closes the details.
///
/// A line that is not a command decodes to a ``Problem``, which the
/// presenter turns into the `error` line the protocol promises.
public enum HeadlessCommand: Equatable, Sendable, Codable {
    // Any screen
    case quit, openPairing
    // Server setup
    case connect(url: String)
    /// A server from `state.discovered`.
    case pick(id: String)
    // Create admin and Sign in
    case setupAdmin(AdminFields)
    case changeServer
    case login(email: String, password: String)
    /// From server setup or sign in: look an invite up and claim it.
    case claimInvite(InviteFields)
    // Create Account (from Sign in), Waiting for Approval, Declined; Reset Password (`forgotPassword` on Sign in opens it)
    case register(displayName: String, email: String, password: String)
    case backToSignIn
    case forgotPassword(email: String), resetPassword(code: String, password: String, confirmation: String?)
    // The library
    case reload
    case logout
    case search(query: String)
    case sort(LibrarySort)
    case layout(LibraryLayout)
    /// nil closes the details.
    case select(id: String?)
    /// Each filter given changes: `finished` `.some(nil)` shows finished
    /// and unfinished books; nil leaves a filter as it is.
    case filter(finished: Bool??, downloaded: Bool?)
    // Pairing
    case confirmPairing(accept: Bool), closePairing, showNewCode
    case revokeDevice(id: String)
    // The player (any signed-in screen)
    case play(bookID: String)
    case pause, resume, stop
    case seek(positionMs: Int64)
    case skip(seconds: Int)
    /// 0-based.
    case chapter(index: Int)
    case rate(Double)
    case volume(Double)
    case boost(db: Double)
    /// nil turns the timer off.
    case sleepTimer(PlayerModel.SleepTimer?)
    case markFinished(bookID: String, finished: Bool)
    case takeOffer
    /// Back to where the book was before its last jump.
    case undoJump
    /// Prints the `recentPositions` line.
    case recentPositions
    // The account's playback preferences (any signed-in screen)
    case preferences
    case setPreferences(PreferencesChange)
    // Downloads (any signed-in screen)
    case download(bookID: String)
    case pauseDownload(bookID: String)
    case resumeDownload(bookID: String)
    case cancelDownload(bookID: String)
    case removeDownload(bookID: String)
    case pauseDownloads
    case resumeDownloads
    case removeDownloads
    // Browsing (any signed-in screen)
    case browse(by: BrowseKind)
    case open(kind: BrowsePageKind, id: String)
    case home, discover
    /// Where the account is signed in (signed in; today's server).
    case sessions
    /// Signs another device's session out.
    case revokeSession(id: String)
    /// Signs every other session out.
    case signOutOthers
    // Saved servers (any screen): HeadlessCommand+Servers.swift
    case servers, addServer, switchServer(id: String), removeServer(id: String)
    // Shelves (any signed-in screen)
    case createShelf(name: String, description: String, isPrivate: Bool, bookID: String?)
    case renameShelf(id: String, name: String, description: String?, isPrivate: Bool?)
    case deleteShelf(id: String)
    case addToShelf(id: String, bookID: String)
    case removeFromShelf(id: String, bookID: String)

    /// The `action` names, one per case.
    public enum Action: String, CaseIterable, Equatable, Sendable {
        case quit, openPairing
        case connect, pick
        case setupAdmin, changeServer, login, claimInvite
        case register, backToSignIn, forgotPassword, resetPassword
        case reload, logout, search, sort, layout, select, filter
        case confirmPairing, closePairing, showNewCode, revokeDevice
        case play, pause, resume, stop, seek, skip, chapter, rate, volume, boost, sleepTimer, markFinished, takeOffer,
             undoJump, recentPositions
        case preferences, setPreferences
        case download, pauseDownload, resumeDownload, cancelDownload, removeDownload, pauseDownloads, resumeDownloads, removeDownloads
        case browse, open, home, discover
        case sessions, revokeSession, signOutOthers
        case servers, addServer, switchServer, removeServer
        case createShelf, renameShelf, deleteShelf, addToShelf, removeFromShelf

        /// Who carries it out.
        public var addressee: Addressee {
            switch self {
            case .quit, .openPairing, .servers, .addServer, .switchServer, .removeServer: .front
            case .play, .pause, .resume, .stop, .seek, .skip, .chapter, .rate, .volume, .boost, .sleepTimer, .markFinished,
                 .takeOffer, .undoJump, .recentPositions: .player
            case .preferences, .setPreferences: .preferences
            case .download, .pauseDownload, .resumeDownload, .cancelDownload, .removeDownload, .pauseDownloads,
                 .resumeDownloads, .removeDownloads: .downloads
            case .browse, .open, .home, .discover, .createShelf, .renameShelf, .deleteShelf, .addToShelf, .removeFromShelf: .browse
            case .sessions, .revokeSession, .signOutOthers: .account
            default: .screen
            }
        }
    }

    /// Who carries out a command.
    public enum Addressee: Equatable, Sendable {
        /// The headless front itself (`quit`, `openPairing`).
        case front
        /// The screen on show.
        case screen
        /// The session's player, from any signed-in screen.
        case player
        /// The session's downloads, from any signed-in screen.
        case downloads
        /// The account's playback preferences, from any signed-in screen.
        case preferences
        /// The session's browsing (series, people, genres), from any
        /// signed-in screen.
        case browse
        /// The account's sessions, from any signed-in screen.
        case account
    }

    /// Why a line is not a command.
    public enum Problem: Error, Equatable, Sendable {
        /// Not one JSON object.
        case notAnObject
        /// No `action` string, or an empty one.
        case noAction
        /// An action the front does not know.
        case unknownAction(String)
        /// A known action whose arguments are missing, of the wrong type or
        /// out of range.
        case badArguments(Action)
    }

    /// Reads one input line.
    /// - Returns: the command, or why the line is not one.
    public static func decode(line: String) -> Result<HeadlessCommand, Problem> {
        do {
            return .success(try JSONDecoder().decode(HeadlessCommand.self, from: Data(line.utf8)))
        } catch let problem as Problem {
            return .failure(problem)
        } catch {
            return .failure(.notAnObject)
        }
    }

    /// Reads a command object.
    /// - Throws: ``Problem`` when the object is not a command; a
    ///   `DecodingError` when it is not a JSON object.
    public init(from decoder: any Decoder) throws {
        let members = try decoder.singleValueContainer().decode([String: JSONValue].self)
        var arguments = members
        guard let name = arguments.removeValue(forKey: "action")?.stringValue, !name.isEmpty else { throw Problem.noAction }
        guard let action = Action(rawValue: name) else { throw Problem.unknownAction(name) }
        try self.init(action: action, arguments: arguments)
    }

    public func encode(to encoder: any Encoder) throws {
        var members = arguments
        members["action"] = .string(action.rawValue)
        var container = encoder.singleValueContainer()
        try container.encode(members)
    }

    /// The command `action` with `arguments` (the line's other members).
    /// - Throws: ``Problem/badArguments(_:)`` when they do not fit.
    public init(action: Action, arguments: [String: JSONValue]) throws(Problem) {
        func string(_ key: String) -> String { arguments[key]?.stringValue ?? "" }
        func nonEmpty(_ key: String) throws(Problem) -> String {
            guard let value = arguments[key]?.stringValue, !value.isEmpty else { throw .badArguments(action) }
            return value
        }
        func number(_ key: String, _ fits: (Double) -> Bool = { _ in true }) throws(Problem) -> Double {
            guard let value = arguments[key]?.doubleValue, value.isFinite, fits(value) else { throw .badArguments(action) }
            return value
        }
        switch action {
        case .quit: self = .quit
        case .openPairing: self = .openPairing
        case .connect: self = .connect(url: string("url"))
        case .pick:
            guard let id = arguments["id"]?.stringValue else { throw .badArguments(action) }
            self = .pick(id: id)
        case .setupAdmin: self = .setupAdmin(Self.adminFields(arguments))
        case .changeServer: self = .changeServer
        case .login: self = .login(email: string("email"), password: string("password"))
        case .claimInvite:
            guard let fields = Self.inviteFields(arguments) else { throw .badArguments(action) }
            self = .claimInvite(fields)
        case .register: self = .register(displayName: string("displayName"), email: string("email"), password: string("password"))
        case .backToSignIn: self = .backToSignIn
        case .forgotPassword, .resetPassword: self = Self.passwordReset(action, arguments)
        case .reload: self = .reload
        case .logout: self = .logout
        case .search: self = .search(query: string("query"))
        case .sort:
            guard let by = arguments["by"]?.stringValue.flatMap(LibrarySort.init(rawValue:)) else { throw .badArguments(action) }
            self = .sort(by)
        case .layout:
            guard let layout = arguments["as"]?.stringValue.flatMap(LibraryLayout.init(rawValue:)) else { throw .badArguments(action) }
            self = .layout(layout)
        case .select: self = .select(id: arguments["id"]?.stringValue)
        case .filter:
            let finished = arguments["finished"], downloaded = arguments["downloaded"]
            guard finished != nil || downloaded != nil else { throw .badArguments(action) }
            if let finished, finished != .null, finished.boolValue == nil { throw .badArguments(action) }
            if let downloaded, downloaded.boolValue == nil { throw .badArguments(action) }
            self = .filter(finished: finished.map { $0.boolValue }, downloaded: downloaded?.boolValue)
        case .confirmPairing:
            guard case .bool(let accept)? = arguments["accept"], arguments.count == 1 else { throw .badArguments(action) }
            self = .confirmPairing(accept: accept)
        case .closePairing: self = .closePairing
        case .showNewCode: self = .showNewCode
        case .revokeDevice:
            guard case .string(let id)? = arguments["id"] else { throw .badArguments(action) }
            self = .revokeDevice(id: id)
        case .play: self = .play(bookID: try nonEmpty("bookId"))
        case .pause: self = .pause
        case .resume: self = .resume
        case .stop: self = .stop
        case .seek: self = .seek(positionMs: Int64(try number("positionMs") { abs($0) < 9e18 }))
        case .skip: self = .skip(seconds: Int(try number("seconds") { abs($0) < 1_000_000 }))
        case .chapter: self = .chapter(index: Int(try number("index") { $0 >= 0 && $0 < 1_000_000 }))
        case .rate: self = .rate(try number("value"))
        case .volume: self = .volume(try number("value"))
        case .boost: self = .boost(db: try number("db") { ListeningRules.boostRange.contains($0) })
        case .sleepTimer:
            if arguments["off"]?.boolValue == true {
                self = .sleepTimer(nil)
            } else if arguments["endOfChapter"]?.boolValue == true {
                self = .sleepTimer(.endOfChapter)
            } else {
                self = .sleepTimer(.minutes(Int(try number("minutes") { $0 >= 1 && $0 <= 24 * 60 })))
            }
        case .markFinished:
            self = .markFinished(bookID: try nonEmpty("bookId"), finished: arguments["finished"]?.boolValue ?? true)
        case .takeOffer: self = .takeOffer
        case .undoJump: self = .undoJump
        case .recentPositions: self = .recentPositions
        case .preferences: self = .preferences
        case .setPreferences:
            guard let change = Self.preferencesChange(arguments) else { throw .badArguments(action) }
            self = .setPreferences(change)
        case .download: self = .download(bookID: try nonEmpty("bookId"))
        case .pauseDownload: self = .pauseDownload(bookID: try nonEmpty("bookId"))
        case .resumeDownload: self = .resumeDownload(bookID: try nonEmpty("bookId"))
        case .cancelDownload: self = .cancelDownload(bookID: try nonEmpty("bookId"))
        case .removeDownload: self = .removeDownload(bookID: try nonEmpty("bookId"))
        case .pauseDownloads: self = .pauseDownloads
        case .resumeDownloads: self = .resumeDownloads
        case .removeDownloads: self = .removeDownloads
        case .browse:
            guard let by = arguments["by"]?.stringValue.flatMap(BrowseKind.init(rawValue:)) else { throw .badArguments(action) }
            self = .browse(by: by)
        case .open:
            guard let kind = arguments["kind"]?.stringValue.flatMap(BrowsePageKind.init(rawValue:)) else { throw .badArguments(action) }
            self = .open(kind: kind, id: try nonEmpty("id"))
        case .home: self = .home
        case .discover: self = .discover
        case .sessions: self = .sessions
        case .revokeSession: self = .revokeSession(id: try nonEmpty("id"))
        case .signOutOthers: self = .signOutOthers
        case .servers, .addServer, .switchServer, .removeServer: self = try Self.savedServers(action, arguments)
        case .createShelf:
            self = .createShelf(name: string("name"), description: string("description"), isPrivate: arguments["private"]?.boolValue ?? false,
                                bookID: arguments["bookId"]?.stringValue)
        case .renameShelf:
            self = .renameShelf(id: try nonEmpty("id"), name: string("name"), description: arguments["description"]?.stringValue,
                                isPrivate: arguments["private"]?.boolValue)
        case .deleteShelf: self = .deleteShelf(id: try nonEmpty("id"))
        case .addToShelf: self = .addToShelf(id: try nonEmpty("id"), bookID: try nonEmpty("bookId"))
        case .removeFromShelf: self = .removeFromShelf(id: try nonEmpty("id"), bookID: try nonEmpty("bookId"))
        }
    }

    /// The action name and the arguments that carry this command.
    public var action: Action { parts.action }

    /// The members of the command's line besides `action`.
    public var arguments: [String: JSONValue] { parts.arguments }

    private var parts: (action: Action, arguments: [String: JSONValue]) {
        func number<Value: BinaryInteger>(_ value: Value) -> JSONValue { .number(Double(value)) }
        switch self {
        case .quit: return (.quit, [:])
        case .openPairing: return (.openPairing, [:])
        case .connect(let url): return (.connect, ["url": .string(url)])
        case .pick(let id): return (.pick, ["id": .string(id)])
        case .setupAdmin(let fields):
            return (.setupAdmin, ["firstName": .string(fields.firstName), "lastName": .string(fields.lastName),
                                  "email": .string(fields.email), "password": .string(fields.password),
                                  "confirmation": .string(fields.confirmation)])
        case .changeServer: return (.changeServer, [:])
        case .login(let email, let password): return (.login, ["email": .string(email), "password": .string(password)])
        case .claimInvite(let fields): return (.claimInvite, fields.arguments)
        case .register(let displayName, let email, let password):
            return (.register, ["displayName": .string(displayName), "email": .string(email), "password": .string(password)])
        case .backToSignIn: return (.backToSignIn, [:])
        case .forgotPassword, .resetPassword: return passwordResetParts
        case .reload: return (.reload, [:])
        case .logout: return (.logout, [:])
        case .search(let query): return (.search, ["query": .string(query)])
        case .sort(let by): return (.sort, ["by": .string(by.rawValue)])
        case .layout(let layout): return (.layout, ["as": .string(layout.rawValue)])
        case .select(let id): return (.select, ["id": .optional(id)])
        case .filter(let finished, let downloaded):
            var arguments: [String: JSONValue] = [:]
            if let finished { arguments["finished"] = finished.map(JSONValue.bool) ?? .null }
            if let downloaded { arguments["downloaded"] = .bool(downloaded) }
            return (.filter, arguments)
        case .confirmPairing(let accept): return (.confirmPairing, ["accept": .bool(accept)])
        case .closePairing: return (.closePairing, [:])
        case .showNewCode: return (.showNewCode, [:])
        case .revokeDevice(let id): return (.revokeDevice, ["id": .string(id)])
        case .play(let bookID): return (.play, ["bookId": .string(bookID)])
        case .pause: return (.pause, [:])
        case .resume: return (.resume, [:])
        case .stop: return (.stop, [:])
        case .seek(let position): return (.seek, ["positionMs": number(position)])
        case .skip(let seconds): return (.skip, ["seconds": number(seconds)])
        case .chapter(let index): return (.chapter, ["index": number(index)])
        case .rate(let value): return (.rate, ["value": .number(value)])
        case .volume(let value): return (.volume, ["value": .number(value)])
        case .boost(let decibels): return (.boost, ["db": .number(decibels)])
        case .sleepTimer(nil): return (.sleepTimer, ["off": true])
        case .sleepTimer(.endOfChapter?): return (.sleepTimer, ["endOfChapter": true])
        case .sleepTimer(.minutes(let minutes)?): return (.sleepTimer, ["minutes": number(minutes)])
        case .markFinished(let bookID, let finished): return (.markFinished, ["bookId": .string(bookID), "finished": .bool(finished)])
        case .takeOffer: return (.takeOffer, [:])
        case .undoJump: return (.undoJump, [:])
        case .recentPositions: return (.recentPositions, [:])
        case .preferences: return (.preferences, [:])
        case .setPreferences(let request):
            var arguments: [String: JSONValue] = [:]
            let change = request.change
            if let speed = change.defaultPlaybackSpeed { arguments["defaultPlaybackSpeed"] = .number(speed) }
            if let forward = change.skipForwardSeconds { arguments["defaultSkipForwardSec"] = number(forward) }
            if let back = change.skipBackwardSeconds { arguments["defaultSkipBackwardSec"] = number(back) }
            if let minutes = change.sleepTimerMinutes { arguments["defaultSleepTimerMin"] = number(minutes) }
            if request.sleepOff { arguments["defaultSleepTimerMin"] = .null }
            if let boost = change.volumeBoostDb { arguments["defaultVolumeBoostDb"] = .number(boost) }
            if let even = request.evenLoudness { arguments["evenLoudness"] = .bool(even) }
            return (.setPreferences, arguments)
        case .download(let bookID): return (.download, ["bookId": .string(bookID)])
        case .pauseDownload(let bookID): return (.pauseDownload, ["bookId": .string(bookID)])
        case .resumeDownload(let bookID): return (.resumeDownload, ["bookId": .string(bookID)])
        case .cancelDownload(let bookID): return (.cancelDownload, ["bookId": .string(bookID)])
        case .removeDownload(let bookID): return (.removeDownload, ["bookId": .string(bookID)])
        case .pauseDownloads: return (.pauseDownloads, [:])
        case .resumeDownloads: return (.resumeDownloads, [:])
        case .removeDownloads: return (.removeDownloads, [:])
        case .browse(let by): return (.browse, ["by": .string(by.rawValue)])
        case .open(let kind, let id): return (.open, ["kind": .string(kind.rawValue), "id": .string(id)])
        case .home: return (.home, [:])
        case .discover: return (.discover, [:])
        case .sessions: return (.sessions, [:])
        case .revokeSession(let id): return (.revokeSession, ["id": .string(id)])
        case .signOutOthers: return (.signOutOthers, [:])
        case .servers, .addServer, .switchServer, .removeServer: return savedServersParts
        case .createShelf(let name, let description, let isPrivate, let bookID):
            var members: [String: JSONValue] = ["name": .string(name), "description": .string(description), "private": .bool(isPrivate)]
            if let bookID { members["bookId"] = .string(bookID) }
            return (.createShelf, members)
        case .renameShelf(let id, let name, let description, let isPrivate):
            var members: [String: JSONValue] = ["id": .string(id), "name": .string(name)]
            if let description { members["description"] = .string(description) }
            if let isPrivate { members["private"] = .bool(isPrivate) }
            return (.renameShelf, members)
        case .deleteShelf(let id): return (.deleteShelf, ["id": .string(id)])
        case .addToShelf(let id, let bookID): return (.addToShelf, ["id": .string(id), "bookId": .string(bookID)])
        case .removeFromShelf(let id, let bookID): return (.removeFromShelf, ["id": .string(id), "bookId": .string(bookID)])
        }
    }
}
