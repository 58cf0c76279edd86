import Foundation
import JSONToolkit
import ListenUpCore
import Logging

/// The second front of the app: realises the navigator as JSON lines.
///
/// Writes one JSON object per line: `{"event":"route","route":…}` on every
/// navigation, `{"event":"state","route":…,"state":{…}}` whenever the active
/// screen's model changes, and `{"event":"error","code":…,"message":…}` for
/// commands it cannot carry out. Reads one JSON command per line, a
/// ``HeadlessCommand``: `{"action":"quit"}`, `{"action":"openPairing"}`
/// (from any screen), a command for the player, the downloads or the
/// preferences (from any signed-in screen), or one for the active screen.
/// Never touches GTK.
///
/// While the pairing screen is open it also writes
/// `{"event":"pairingCode","uri":…,"expiresAt":…}` for each new code (after
/// writing its QR to the `--qr-png` file, if given) and
/// `{"event":"pairingRequest","client":…,"model":…,"comparisonCode":…}` for
/// each request waiting for `{"action":"confirmPairing","accept":true|false}`.
///
/// While signed in it follows the session's player (`player` lines) and
/// downloads: `{"event":"download","bookId":…,"status":…,"bytes":…,
/// "totalBytes":…}` (with `code` and `message` after a failure) for each
/// download when the session starts, when its status changes, and as its
/// bytes grow (at most four lines a second per book); see
/// ``DownloadReporter``.
@MainActor
public final class HeadlessPresenter {
    let navigator: AppNavigator
    private let screens = HeadlessScreens.standard
    let emit: @MainActor (JSONValue) -> Void
    private let logger: Logger
    private var routeObservation: StateObservation?, stateObservation: StateObservation?
    private var observedModel: ObjectIdentifier?
    private var lastRoute: Route?, lastState: JSONValue?
    private let qrPNGPath: String?
    private var pairingObservation: StateObservation?
    private var lastPairingURI: String?, lastRequestID: UUID?
    /// The session's player, downloads and preferences, followed as the
    /// navigator replaces them (checked on each route change, so their
    /// lines keep their order with the route's).
    private var player: ModelFollower<PlayerModel>?
    private var downloads: ModelFollower<DownloadsModel>?
    var preferences: ModelFollower<AccountPreferencesSync>?
    private var lastRemoteNotice: UUID?, lastNotice: UUID?
    private var lastPositionNotices: [UUID] = []
    private var playerLines = PlayerLineThrottle()
    private var downloadReporter = DownloadReporter()
    private var downloadRecheck: Task<Void, Never>?, playerRecheck: Task<Void, Never>?
    var serversObservation: StateObservation?, serversLine: JSONValue?
    var lastPreferencesLine: JSONValue?
    /// The session's browsing, followed while a `browse` or `open` waits
    /// for its list or page (HeadlessPresenter+Browse.swift).
    var browse: ModelFollower<BrowseModel>?
    var browseRequest: BrowseKind?, lastPageLine: JSONValue?
    /// Discover, followed once asked (HeadlessPresenter+Discover.swift).
    var discover: ModelFollower<DiscoverModel>?, discoverLine: JSONValue?
    var lastMissingPage: BrowseModel.PageKey?
    /// Home, followed while a `home` waits for its refresh to end.
    var home: ModelFollower<HomeModel>?, homeRequestedAfter: Int?
    /// Signed-in devices: HeadlessPresenter+Sessions.swift.
    var accountSessions: ModelFollower<AccountSessionsModel>?, sessionsPrinted: [String]?, sessionsRequests = 0

    /// - Parameters:
    ///   - navigator: the core to present.
    ///   - emit: writes one line; ``HeadlessPresenter/standardOutput`` in the app.
    ///   - qrPNGPath: where to write the pairing QR (PNG) for each new code (`--qr-png`).
    public init(navigator: AppNavigator, logger: Logger, qrPNGPath: String? = nil, emit: @escaping @MainActor (JSONValue) -> Void) {
        self.navigator = navigator
        self.logger = logger
        self.qrPNGPath = qrPNGPath
        self.emit = emit
        let navigator = navigator
        player = ModelFollower({ navigator.player }, replaced: { [weak self] in self?.playerReplaced($0) },
                               follow: { [weak self] in self?.playerChanged($0) })
        downloads = ModelFollower({ navigator.downloads }, replaced: { [weak self] in self?.downloadsReplaced($0) },
                                  follow: { [weak self] in self?.reportDownloads($0) })
        preferences = ModelFollower({ navigator.accountPreferences }, replaced: { [weak self] in self?.preferencesReplaced($0) },
                                    follow: { [weak self] in self?.printPreferences($0.playback) })
        browse = ModelFollower({ navigator.signedIn?.browse }, replaced: { [weak self] _ in self?.browseReplaced() },
                               follow: { [weak self] in self?.browseChanged($0) })
        home = ModelFollower({ navigator.signedIn?.home }, replaced: { [weak self] _ in self?.homeRequestedAfter = nil },
                             follow: { [weak self] in self?.homeChanged($0) })
        accountSessions = ModelFollower({ navigator.signedIn?.accountSessions }, replaced: { [weak self] _ in self?.sessionsPrinted = nil },
                                        follow: { [weak self] in self?.accountSessionsChanged($0) })
    }

    /// Starts presenting: emits the current route and state, then every change.
    public func start() {
        routeObservation = StateObservation { [weak self] in self?.routeChanged() }
        followServers()
    }

    /// Stops observing.
    public func stop() {
        routeObservation?.cancel()
        stateObservation?.cancel()
        pairingObservation?.cancel()
        player?.cancel()
        downloads?.cancel()
        downloadRecheck?.cancel()
        playerRecheck?.cancel()
        preferences?.cancel()
        browse?.cancel()
        home?.cancel()
        accountSessions?.cancel()
        discover?.cancel()
        serversObservation?.cancel()
    }

    /// What the caller should do after a command line.
    public enum Outcome: Equatable, Sendable {
        case carryOn
        case quit
    }

    /// Handles one line of input: decodes it (``HeadlessCommand``) and
    /// hands it to whoever carries it out, or prints why it cannot be.
    public func handle(line: String) -> Outcome {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return .carryOn }
        switch HeadlessCommand.decode(line: trimmed) {
        case .success(let command):
            return handle(command)
        case .failure(let problem):
            refuse(problem)
            return .carryOn
        }
    }

    /// Carries out `command`.
    public func handle(_ command: HeadlessCommand) -> Outcome {
        switch command {
        case .quit: return .quit
        case .openPairing:
            if !navigator.open(.pairing) { emitError(code: "badCommand", message: "Pairing is not available.") }
            return .carryOn
        case .claimInvite: if !openInvite() { return .carryOn }
        case .servers, .addServer, .switchServer, .removeServer: handleServers(command); return .carryOn
        default:
            break
        }
        switch command.action.addressee {
        case .front:
            break
        case .downloads:
            handleDownloads(command)
        case .preferences:
            handlePreferences(command)
        case .browse:
            handleBrowse(command)
        case .account:
            handleAccountSessions(command)
        case .player:
            // The player answers from every signed-in screen.
            guard let player = navigator.player else {
                emitError(code: "notSignedIn", message: "Sign in to listen.")
                return .carryOn
            }
            if command == .recentPositions {
                emit(Self.recentPositionsLine(player))
            } else if let intent = command.playerIntent {
                player.send(intent)
            }
        case .screen:
            // `register` and `forgotPassword` on Sign in open the page that takes them.
            guard openCreateAccount(for: command), openResetPassword(for: command) else { return .carryOn }
            guard let model = navigator.activeModel, screens.handle(command, by: model, on: navigator.activeRoute) else {
                refuse(.unknownAction(command.action.rawValue))
                return .carryOn
            }
        }
        return .carryOn
    }

    /// Prints why a line is not a command (signed out, a command for the
    /// session says so first, whatever its arguments).
    private func refuse(_ problem: HeadlessCommand.Problem) {
        switch problem {
        case .notAnObject:
            emitError(code: "badCommand", message: "Each command must be one JSON object on one line.")
        case .noAction:
            emitError(code: "badCommand", message: "A command needs an \"action\" string.")
        case .unknownAction(let action):
            emitError(code: "badCommand", message: "Unknown action “\(action)” on the \(navigator.activeRoute.rawValue) screen.")
        case .badArguments(let action):
            switch action.addressee {
            case .front, .screen:
                if !refusedServerCommand(action) { refuse(.unknownAction(action.rawValue)) }
            case .player:
                if navigator.player == nil {
                    emitError(code: "notSignedIn", message: "Sign in to listen.")
                } else {
                    emitError(code: "badCommand", message: "The “\(action.rawValue)” command is missing an argument or has one out of range.")
                }
            case .downloads:
                if navigator.downloads == nil {
                    emitError(code: "notSignedIn", message: "Sign in to download.")
                } else {
                    emitError(code: "badCommand", message: "The “\(action.rawValue)” command needs a \"bookId\" string.")
                }
            case .preferences:
                if navigator.accountPreferences == nil {
                    emitError(code: "notSignedIn", message: "Sign in to see the playback preferences.")
                } else {
                    emitError(code: "badCommand", message: Self.preferencesUsage)
                }
            case .browse:
                if navigator.signedIn == nil {
                    emitError(code: "notSignedIn", message: "Sign in to browse the library.")
                } else {
                    emitError(code: "badCommand", message: Self.browseUsage)
                }
            case .account:
                if navigator.signedIn == nil {
                    emitError(code: "notSignedIn", message: "Sign in to see where you are signed in.")
                } else {
                    emitError(code: "badCommand", message: "The “\(action.rawValue)” command needs an \"id\" string.")
                }
            }
        }
    }

    /// The session's downloads appeared (or went): every download once
    /// (what a restart restored), then each change (``reportDownloads(_:)``).
    private func downloadsReplaced(_ downloads: DownloadsModel?) {
        downloadRecheck?.cancel()
        downloadRecheck = nil
        downloadReporter = DownloadReporter(refusal: downloads?.refusal)
    }

    private func reportDownloads(_ downloads: DownloadsModel) {
        let report = downloadReporter.report(downloads.ordered, refusal: downloads.refusal, now: .now)
        report.lines.forEach(emit)
        downloadRecheck?.cancel()
        downloadRecheck = nil
        guard let wait = report.recheckAfter else { return }
        // Bytes held back by the throttle are printed when it allows.
        downloadRecheck = Task { [weak self, weak downloads] in
            try? await Task.sleep(for: wait)
            guard !Task.isCancelled, let self, let downloads, self.downloads?.model === downloads else { return }
            self.reportDownloads(downloads)
        }
    }

    /// The session's player appeared (or went): followed from now on.
    private func playerReplaced(_ player: PlayerModel?) {
        playerLines = PlayerLineThrottle()
        playerRecheck?.cancel()
        playerRecheck = nil
        guard let player else { return }
        // What the player said before it was followed is not news.
        lastRemoteNotice = player.remoteNotice?.id
        lastNotice = player.notice?.id
        lastPositionNotices = [player.adoptedPosition?.id, player.positionOffer?.id].compactMap { $0 }
    }

    /// The session's player: `{"event":"player","state":{…}}` on every
    /// change, and about once a second for the position alone
    /// (``PlayerLineThrottle``); its notices as they come.
    private func playerChanged(_ player: PlayerModel) {
        playerStateChanged(player)
        remoteNoticeChanged(player.remoteNotice)
        noticeChanged(player.notice)
        positionNoticeChanged("positionAdopted", player.adoptedPosition)
        positionNoticeChanged("positionOffered", player.positionOffer)
    }

    /// `{"event":"remote","device":…,"message":"Paused from My Phone"}`: a
    /// paired device changed playback (the window shows it as a toast).
    private func remoteNoticeChanged(_ notice: PlayerModel.RemoteNotice?) {
        guard let notice, notice.id != lastRemoteNotice else { return }
        lastRemoteNotice = notice.id
        emit(["event": "remote", "device": .string(notice.deviceName), "message": .string(notice.message)])
    }

    /// `{"event":"error","code":"markFailed",…}`: something the player
    /// could not do for the user (the window shows it as a toast).
    private func noticeChanged(_ notice: PlayerModel.Notice?) {
        guard let notice, notice.id != lastNotice else { return }
        lastNotice = notice.id
        emitError(code: notice.code.rawValue, message: notice.message)
    }

    /// `{"event":"positionAdopted"|"positionOffered","bookId","positionMs","device"}`:
    /// another device's position, taken at once or offered after a pause.
    private func positionNoticeChanged(_ event: String, _ notice: PlayerModel.PositionNotice?) {
        guard let notice, !lastPositionNotices.contains(notice.id) else { return }
        lastPositionNotices.append(notice.id)
        emit(["event": .string(event), "bookId": .string(notice.bookID), "positionMs": .number(Double(notice.position)),
              "device": .optional(notice.device)])
    }

    private func playerStateChanged(_ player: PlayerModel) {
        let state = player.snapshot
        switch playerLines.decide(state, now: .now) {
        case .unchanged:
            break
        case .print:
            playerRecheck?.cancel()
            playerRecheck = nil
            emit(["event": "player", "state": state])
        case .wait(let wait):
            // Printed when the interval is over, unless a newer state is by then.
            playerRecheck?.cancel()
            playerRecheck = Task { [weak self, weak player] in
                try? await Task.sleep(for: wait)
                guard !Task.isCancelled, let self, let player, self.player?.model === player else { return }
                self.playerStateChanged(player)
            }
        }
    }

    private func routeChanged() {
        player?.update()
        downloads?.update()
        preferences?.update()
        browse?.update()
        home?.update()
        accountSessions?.update()
        let route = navigator.activeRoute
        let model = navigator.activeModel
        let identity = model.map { ObjectIdentifier($0) }
        if route != lastRoute || identity != observedModel {
            lastRoute = route
            lastState = nil
            emit(["event": "route", "route": .string(route.rawValue)])
            stateObservation?.cancel()
            pairingObservation?.cancel()
            pairingObservation = nil
            observedModel = identity
            if let model {
                let screens = screens
                stateObservation = StateObservation { [weak self, weak model] in
                    guard let self, let model, let snapshot = screens.snapshot(of: model, on: route) else { return }
                    self.stateChanged(route: route, snapshot: snapshot)
                }
            }
            if let pairing = ScreenKey.pairing.model(model, on: route) {
                lastPairingURI = nil
                lastRequestID = nil
                pairingObservation = StateObservation { [weak self, weak pairing] in
                    guard let self, let pairing else { return }
                    self.pairingChanged(pairing)
                }
            }
        }
    }

    /// Reports each new code (once its QR file is written) and each new request.
    private func pairingChanged(_ model: PairingModel) {
        let phase = model.phase
        let image = model.qrImage
        let request = model.request
        if case .open(let uri, _, _) = phase, uri != lastPairingURI, let validUntil = model.codeValidUntil {
            var ready = true
            if let qrPNGPath {
                if let image {
                    do {
                        try image.pngData().write(to: URL(fileURLWithPath: qrPNGPath), options: .atomic)
                    } catch {
                        logger.error("Cannot write the QR PNG", metadata: ["path": "\(qrPNGPath)", "error": "\(error)"])
                    }
                } else {
                    ready = false // wait for the image of this code
                }
            }
            if ready {
                lastPairingURI = uri
                emit(["event": "pairingCode", "uri": .string(uri), "expiresAt": .string(Self.rfc3339(validUntil))])
            }
        }
        if let request, request.id != lastRequestID {
            lastRequestID = request.id
            emit(["event": "pairingRequest", "client": .string(request.clientName), "model": .string(request.clientModel),
                  "comparisonCode": .string(request.comparisonCode)])
        }
    }

    private func stateChanged(route: Route, snapshot: JSONValue) {
        guard snapshot != lastState else { return }
        lastState = snapshot
        emit(["event": "state", "route": .string(route.rawValue), "state": snapshot])
    }

    func emitError(code: String, message: String) {
        logger.debug("Headless command refused", metadata: ["code": "\(code)"])
        emit(["event": "error", "code": .string(code), "message": .string(message)])
    }
}

extension HeadlessPresenter {
    /// Writes a line to stdout and flushes, so a reading process sees it at once.
    public static func standardOutput(_ value: JSONValue) {
        let line = value.jsonLine() + "\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    }
}
