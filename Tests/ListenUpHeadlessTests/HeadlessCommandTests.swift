import Foundation
import Testing
@testable import ListenUpCore
@testable import ListenUpHeadless

/// The headless commands as one `Codable` enum: every action reads into its
/// case and writes back to the same command; what is not a command says why.
@Suite("Headless commands")
struct HeadlessCommandTests {
    /// One well-formed line per action.
    static let lines: [HeadlessCommand.Action: String] = [
        .quit: #"{"action":"quit"}"#,
        .openPairing: #"{"action":"openPairing"}"#,
        .connect: #"{"action":"connect","url":"http://127.0.0.1:9"}"#,
        .pick: #"{"action":"pick","id":"lib-den"}"#,
        .setupAdmin: #"{"action":"setupAdmin","name":"Ada King Lovelace","email":"ada@example.com","password":"analytical-engine"}"#,
        .changeServer: #"{"action":"changeServer"}"#,
        .login: #"{"action":"login","email":"ada@example.com","password":"analytical-engine"}"#,
        .claimInvite: #"{"action":"claimInvite","link":"listenup://join/abc","password":"compiler-1952","displayName":"Grace"}"#,
        .register: #"{"action":"register","displayName":"Grace Hopper","email":"grace@example.com","password":"compiler-first"}"#,
        .backToSignIn: #"{"action":"backToSignIn"}"#,
        .forgotPassword: #"{"action":"forgotPassword","email":"ada@example.com"}"#,
        .resetPassword: #"{"action":"resetPassword","code":"ABCD-2345","confirmation":"difference-engine","password":"difference-engine"}"#,
        .reload: #"{"action":"reload"}"#,
        .logout: #"{"action":"logout"}"#,
        .search: #"{"action":"search","query":"dune"}"#,
        .sort: #"{"action":"sort","by":"recentlyAdded"}"#,
        .layout: #"{"action":"layout","as":"list"}"#,
        .select: #"{"action":"select","id":"book-1"}"#,
        .filter: #"{"action":"filter","finished":null,"downloaded":true}"#,
        .confirmPairing: #"{"action":"confirmPairing","accept":true}"#,
        .closePairing: #"{"action":"closePairing"}"#,
        .showNewCode: #"{"action":"showNewCode"}"#,
        .revokeDevice: #"{"action":"revokeDevice","id":"device-1"}"#,
        .play: #"{"action":"play","bookId":"book-1"}"#,
        .pause: #"{"action":"pause"}"#,
        .resume: #"{"action":"resume"}"#,
        .stop: #"{"action":"stop"}"#,
        .seek: #"{"action":"seek","positionMs":16500}"#,
        .skip: #"{"action":"skip","seconds":-30}"#,
        .chapter: #"{"action":"chapter","index":2}"#,
        .rate: #"{"action":"rate","value":1.25}"#,
        .volume: #"{"action":"volume","value":0.5}"#,
        .boost: #"{"action":"boost","db":6}"#,
        .sleepTimer: #"{"action":"sleepTimer","minutes":15}"#,
        .markFinished: #"{"action":"markFinished","bookId":"book-1","finished":false}"#,
        .takeOffer: #"{"action":"takeOffer"}"#,
        .undoJump: #"{"action":"undoJump"}"#,
        .recentPositions: #"{"action":"recentPositions"}"#,
        .preferences: #"{"action":"preferences"}"#,
        .setPreferences: #"{"action":"setPreferences","defaultPlaybackSpeed":1.5,"defaultSleepTimerMin":null,"evenLoudness":true}"#,
        .download: #"{"action":"download","bookId":"book-1"}"#,
        .pauseDownload: #"{"action":"pauseDownload","bookId":"book-1"}"#,
        .resumeDownload: #"{"action":"resumeDownload","bookId":"book-1"}"#,
        .cancelDownload: #"{"action":"cancelDownload","bookId":"book-1"}"#,
        .removeDownload: #"{"action":"removeDownload","bookId":"book-1"}"#,
        .pauseDownloads: #"{"action":"pauseDownloads"}"#,
        .resumeDownloads: #"{"action":"resumeDownloads"}"#,
        .removeDownloads: #"{"action":"removeDownloads"}"#,
        .browse: #"{"action":"browse","by":"narrators"}"#,
        .open: #"{"action":"open","kind":"series","id":"series-1"}"#,
        .home: #"{"action":"home"}"#,
        .discover: #"{"action":"discover"}"#,
        .sessions: #"{"action":"sessions"}"#,
        .revokeSession: #"{"action":"revokeSession","id":"session-2"}"#,
        .signOutOthers: #"{"action":"signOutOthers"}"#,
        .servers: #"{"action":"servers"}"#,
        .addServer: #"{"action":"addServer"}"#,
        .switchServer: #"{"action":"switchServer","id":"http://127.0.0.1:8080"}"#,
        .removeServer: #"{"action":"removeServer","id":"http://127.0.0.1:8080"}"#,
        .createShelf: #"{"action":"createShelf","name":"Bedtime","description":"Short ones","private":true,"bookId":"b1"}"#,
        .renameShelf: #"{"action":"renameShelf","id":"s1","name":"Later","private":false}"#,
        .deleteShelf: #"{"action":"deleteShelf","id":"s1"}"#,
        .addToShelf: #"{"action":"addToShelf","id":"s1","bookId":"b1"}"#,
        .removeFromShelf: #"{"action":"removeFromShelf","id":"s1","bookId":"b1"}"#,
    ]

    @Test func everyActionReadsIntoItsCaseAndWritesBackTheSameCommand() throws {
        #expect(Set(Self.lines.keys) == Set(HeadlessCommand.Action.allCases), "a line for every action")
        for (action, line) in Self.lines {
            let command = try HeadlessCommand.decode(line: line).get()
            #expect(command.action == action, "\(line)")
            let written = String(decoding: try JSONEncoder().encode(command), as: UTF8.self)
            #expect(HeadlessCommand.decode(line: written) == .success(command), "\(line) → \(written)")
        }
    }

    @Test func argumentsAreTyped() throws {
        #expect(try HeadlessCommand.decode(line: Self.lines[.createShelf] ?? "").get()
            == .createShelf(name: "Bedtime", description: "Short ones", isPrivate: true, bookID: "b1"))
        #expect(try HeadlessCommand.decode(line: #"{"action":"createShelf","name":"A"}"#).get()
            == .createShelf(name: "A", description: "", isPrivate: false, bookID: nil))
        #expect(try HeadlessCommand.decode(line: Self.lines[.renameShelf] ?? "").get()
            == .renameShelf(id: "s1", name: "Later", description: nil, isPrivate: false))
        #expect(HeadlessCommand.decode(line: #"{"action":"addToShelf","id":"s1"}"#) == .failure(.badArguments(.addToShelf)))
        #expect(try HeadlessCommand.decode(line: Self.lines[.register] ?? "").get()
            == .register(displayName: "Grace Hopper", email: "grace@example.com", password: "compiler-first"))
        #expect(HeadlessCommand.Action.register.addressee == .screen && HeadlessCommand.Action.backToSignIn.addressee == .screen)
        #expect(try HeadlessCommand.decode(line: #"{"action":"resetPassword","code":"abcd-2345","password":"difference-engine"}"#).get()
            == .resetPassword(code: "abcd-2345", password: "difference-engine", confirmation: nil), "the confirmation is optional")
        #expect(HeadlessCommand.Action.forgotPassword.addressee == .screen && HeadlessCommand.Action.resetPassword.addressee == .screen)
        #expect(try HeadlessCommand.decode(line: Self.lines[.setupAdmin] ?? "").get()
            == .setupAdmin(.init(firstName: "Ada King", lastName: "Lovelace", email: "ada@example.com",
                                 password: "analytical-engine", confirmation: "analytical-engine")))
        #expect(try HeadlessCommand.decode(line: Self.lines[.filter] ?? "").get() == .filter(finished: .some(nil), downloaded: true))
        #expect(try HeadlessCommand.decode(line: #"{"action":"filter","finished":false}"#).get() == .filter(finished: false, downloaded: nil))
        #expect(try HeadlessCommand.decode(line: #"{"action":"select","id":null}"#).get() == .select(id: nil))
        #expect(try HeadlessCommand.decode(line: #"{"action":"connect"}"#).get() == .connect(url: ""))
        #expect(try HeadlessCommand.decode(line: #"{"action":"sleepTimer","endOfChapter":true}"#).get() == .sleepTimer(.endOfChapter))
        #expect(try HeadlessCommand.decode(line: #"{"action":"sleepTimer","off":true,"minutes":5}"#).get() == .sleepTimer(nil))
        #expect(try HeadlessCommand.decode(line: #"{"action":"markFinished","bookId":"b"}"#).get() == .markFinished(bookID: "b", finished: true))
        #expect(try HeadlessCommand.decode(line: Self.lines[.seek] ?? "").get().playerIntent == .seek(16_500))
        #expect(try HeadlessCommand.decode(line: Self.lines[.cancelDownload] ?? "").get().downloadsIntent == .cancel(bookID: "book-1"))
        #expect(HeadlessCommand.reload.playerIntent == nil && HeadlessCommand.pause.downloadsIntent == nil)
        #expect(try HeadlessCommand.decode(line: Self.lines[.claimInvite] ?? "").get()
            == .claimInvite(.init(link: "listenup://join/abc", password: "compiler-1952", displayName: "Grace")))
        #expect(HeadlessCommand.decode(line: #"{"action":"claimInvite","link":"x"}"#) == .failure(.badArguments(.claimInvite)),
                "a claim needs its password")
        #expect(try HeadlessCommand.decode(line: Self.lines[.switchServer] ?? "").get() == .switchServer(id: "http://127.0.0.1:8080"))
        #expect(try HeadlessCommand.decode(line: Self.lines[.removeServer] ?? "").get() == .removeServer(id: "http://127.0.0.1:8080"))
        #expect(HeadlessCommand.decode(line: #"{"action":"switchServer"}"#) == .failure(.badArguments(.switchServer)), "a switch needs an id")
        #expect(HeadlessCommand.decode(line: #"{"action":"removeServer","id":""}"#) == .failure(.badArguments(.removeServer)))
        #expect(HeadlessCommand.Action.servers.addressee == .front && HeadlessCommand.Action.addServer.addressee == .front,
                "the saved servers answer from any screen")
    }

    @Test func whatIsNotACommandSaysWhy() {
        #expect(HeadlessCommand.decode(line: "oops") == .failure(.notAnObject))
        #expect(HeadlessCommand.decode(line: "[1]") == .failure(.notAnObject))
        #expect(HeadlessCommand.decode(line: #"{"action":7}"#) == .failure(.noAction))
        #expect(HeadlessCommand.decode(line: #"{"action":""}"#) == .failure(.noAction))
        #expect(HeadlessCommand.decode(line: #"{"action":"teleport"}"#) == .failure(.unknownAction("teleport")))
        #expect(HeadlessCommand.decode(line: #"{"action":"seek","positionMs":1e300}"#) == .failure(.badArguments(.seek)),
                "out of range, not a crash")
        #expect(HeadlessCommand.decode(line: #"{"action":"sort","by":"colour"}"#) == .failure(.badArguments(.sort)))
        #expect(HeadlessCommand.decode(line: #"{"action":"filter","finished":true,"downloaded":"x"}"#) == .failure(.badArguments(.filter)))
        #expect(HeadlessCommand.decode(line: #"{"action":"setPreferences","defaultSkipForwardSec":4}"#)
            == .failure(.badArguments(.setPreferences)))
        #expect(HeadlessCommand.decode(line: #"{"action":"browse","by":"publishers"}"#) == .failure(.badArguments(.browse)))
        #expect(HeadlessCommand.decode(line: #"{"action":"open","kind":"series","id":""}"#) == .failure(.badArguments(.open)))
        #expect(HeadlessCommand.decode(line: #"{"action":"open","kind":"planet","id":"x"}"#) == .failure(.badArguments(.open)))
    }
}
