import Foundation
import Observation

/// Use an invite: paste (or open) an invite link; the app checks the link's
/// server as server setup does, asks it about the invite
/// (``ServerConnection/lookupInvite(code:)``) and shows who invited you to
/// which server, or why the invite cannot be used; then a password (and on
/// today's server a name) claims it, which makes the account and signs in.
///
/// ```
/// editing ─lookUp→ checking ─→ ready (a usable invite: the form)
///                           ─→ unusable (expired, used, unknown…)
///                           ─→ failed (a bad link, a server not reached)
/// ready ─claim→ claiming ─→ signed in (the auth state moves on)
///                        ─→ claimFailed (weak password, network…) │ unusable (it expired meanwhile)
/// any ─anotherLink→ editing      any ─back→ (the screen it came from)
/// ```
/// Main actor. A look-up or claim in flight is cancelled when the link
/// changes or the screen goes; only the latest one reports.
@MainActor @Observable
public final class InviteModel: ScreenModel {
    /// Where the screen stands.
    public enum Status: Equatable, Sendable {
        /// The link field.
        case editing
        /// Checking the link's server, then asking it about the invite.
        case checking
        /// The link or the look-up failed (the field shows why); `code` is machine-readable.
        case failed(code: String, message: String)
        /// The server says this invite cannot be used (``preview`` is kept when it sent one).
        case unusable(InviteRefusal)
        /// A usable invite: its preview and the form.
        case ready
        /// Claiming it.
        case claiming
        /// The claim failed; the form stays.
        case claimFailed(code: String, message: String)
    }

    /// What the user does.
    public enum Intent: Equatable, Sendable {
        case linkChanged(String)
        /// Continue: check the link and look the invite up.
        case lookUp
        case displayNameChanged(String)
        case passwordChanged(String)
        /// Create the account.
        case claim
        /// Back to the link field (after an unusable invite).
        case anotherLink
        /// Leave: back to server setup or sign in.
        case back
    }

    /// The link field's text, as typed or opened.
    public private(set) var linkText: String
    public private(set) var status: Status = .editing
    /// What the server said about the invite, once it answered.
    public private(set) var preview: InvitePreview?
    /// The invite's server, once verified.
    public private(set) var server: VerifiedServer?
    /// The account's name (prefilled with the invite's).
    public private(set) var displayName = ""
    /// Kept only in memory, never in a snapshot or a log.
    @ObservationIgnored public private(set) var password = ""
    public private(set) var passwordLength = 0
    /// The server the app knew when the invite was started (for links that name none).
    public let knownServer: KnownServer?

    @ObservationIgnored private let client: InviteClient
    @ObservationIgnored private let send: @MainActor @Sendable (AuthEvent) -> Void
    @ObservationIgnored private var work: Task<Void, Never>?
    @ObservationIgnored private var code: String?
    /// The text last refused as no invite link (``canLookUp``).
    private var refusedLink: String?
    /// A claim asked for with the link (headless `claimInvite`): made as soon as the invite is ready.
    @ObservationIgnored private var pendingClaim: (password: String, displayName: String?, email: String?)?

    /// - Parameters:
    ///   - start: the link opened (looked up at once) and the server known then.
    ///   - client: the server check, look-up and claim.
    ///   - send: moves the auth state (signed in, or back).
    public init(start: InviteStart, client: InviteClient, send: @escaping @MainActor @Sendable (AuthEvent) -> Void) {
        linkText = start.link ?? ""
        knownServer = start.knownServer
        self.client = client
        self.send = send
        if start.link != nil { lookUp() }
    }

    /// Whether the server takes a name with the claim (REST v1 takes the invite's).
    public var takesDisplayName: Bool { server?.generation != .restV1 }

    /// Whether Continue can be pressed: a link is there, nothing is being
    /// checked, and it is not the text just refused as no invite link (a
    /// server that was not reached may be tried again).
    public var canLookUp: Bool {
        switch status {
        case .editing, .failed:
            !linkText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && linkText != refusedLink
        default: false
        }
    }

    /// The password's local problem, once something is typed.
    public var passwordProblem: String? {
        passwordLength == 0 ? nil : AccountFormRules.passwordProblem(length: passwordLength)
    }

    /// Whether Create Account can be pressed.
    public var canClaim: Bool {
        switch status {
        case .ready, .claimFailed:
            (Self.minimumPasswordLength...Self.maximumPasswordLength).contains(passwordLength)
                && (!takesDisplayName || !displayName.trimmingCharacters(in: .whitespaces).isEmpty)
        default: false
        }
    }

    /// The shortest and longest passwords both servers take.
    public static let minimumPasswordLength = AccountFormRules.passwordLengths.lowerBound
    public static let maximumPasswordLength = AccountFormRules.passwordLengths.upperBound

    /// The error to show, if any.
    public var errorMessage: String? {
        switch status {
        case .failed(_, let message), .claimFailed(_, let message): message
        case .unusable(let refusal): refusal.userMessage
        default: nil
        }
    }

    public func send(_ intent: Intent) {
        switch intent {
        case .linkChanged(let text):
            guard text != linkText else { return }
            linkText = text
            if status != .editing { reset() }
        case .lookUp:
            guard canLookUp else { return }
            lookUp()
        case .displayNameChanged(let text):
            // The page writing the model's own value back is not an edit.
            guard text != displayName else { return }
            displayName = text
            if case .claimFailed = status { status = .ready }
        case .passwordChanged(let text):
            guard text != password else { return }
            password = text
            passwordLength = text.count
            if case .claimFailed = status { status = .ready }
        case .claim:
            guard canClaim else { return }
            claim()
        case .anotherLink:
            reset()
        case .back:
            work?.cancel()
            send(.inviteClosed)
        }
    }

    /// Another invite link was opened while this page is on screen: it
    /// replaces the one shown and is looked up.
    public func open(link: String) {
        linkText = link
        reset()
        lookUp()
    }

    /// Looks the invite of `link` up and claims it as soon as it is ready
    /// (headless `claimInvite`). A claim that cannot be made says why in ``status``.
    /// - Parameter email: when given, the invite must be for this email.
    public func claim(link: String, password: String, displayName: String?, email: String?) {
        pendingClaim = (password, displayName, email)
        if link.trimmingCharacters(in: .whitespacesAndNewlines) == linkText.trimmingCharacters(in: .whitespacesAndNewlines),
           status == .ready || status.isClaimFailure {
            claimPending()
            return
        }
        linkText = link
        reset(keepingClaim: true)
        lookUp()
    }

    private func reset(keepingClaim: Bool = false) {
        work?.cancel()
        work = nil
        if !keepingClaim { pendingClaim = nil }
        preview = nil
        server = nil
        code = nil
        status = .editing
    }

    private func lookUp() {
        let link: InviteLink
        switch InviteLink.parse(linkText) {
        case .failure(let error):
            status = .failed(code: error.code, message: error.userMessage)
            refusedLink = linkText
            return
        case .success(let parsed):
            link = parsed
        }
        let known = knownServer.flatMap { server -> ServerAddress? in try? ServerAddress.parse(server.url.absoluteString).get() }
        guard let address = link.server ?? known else {
            status = .failed(code: "inviteWithoutServer",
                             message: tr("This invite link doesn't name its server. Connect to the server first, then use the invite again."))
            return
        }
        status = .checking
        let client = client
        work?.cancel()
        work = Task { [weak self] in
            var verified = await client.verify(address)
            if case .failure(let error) = verified, [.unreachable, .timedOut].contains(error), let remote = link.remote {
                verified = await client.verify(remote)
            }
            guard !Task.isCancelled, let self else { return }
            let server: VerifiedServer
            switch verified {
            case .failure(let error):
                self.status = .failed(code: error.code, message: error.userMessage(for: address.url))
                return
            case .success(let found):
                server = found
            }
            let answer = await client.lookUp(KnownServer(server), link.code)
            guard !Task.isCancelled else { return }
            self.looked(answer, server: server, code: link.code)
        }
    }

    private func looked(_ answer: Result<InvitePreview, ServerError>, server: VerifiedServer, code: String) {
        self.server = server
        switch answer {
        case .success(let preview):
            self.preview = preview
            self.code = code
            if let problem = preview.problem {
                status = .unusable(problem)
                pendingClaim = nil
            } else {
                displayName = preview.displayName
                status = .ready
                claimPending()
            }
        case .failure(.invite(let refusal)):
            status = .unusable(refusal)
            pendingClaim = nil
        case .failure(let error):
            status = .failed(code: error.code, message: error.userMessage)
            pendingClaim = nil
        }
    }

    /// Makes the claim asked for with the link, now that the invite is ready.
    private func claimPending() {
        guard let pending = pendingClaim, let preview else { return }
        pendingClaim = nil
        if let email = pending.email?.trimmingCharacters(in: .whitespaces), !email.isEmpty,
           email.caseInsensitiveCompare(preview.email) != .orderedSame {
            status = .claimFailed(code: "inviteEmailMismatch", message: tr("This invite is for %@, not for the email you gave.", preview.email))
            return
        }
        if let name = pending.displayName, !name.trimmingCharacters(in: .whitespaces).isEmpty { displayName = name }
        password = pending.password
        passwordLength = pending.password.count
        if canClaim {
            claim()
        } else {
            status = .claimFailed(code: "invalidForm", message: passwordProblem ?? tr("Enter your name."))
        }
    }

    private func claim() {
        guard let server, let code else { return }
        status = .claiming
        let name = displayName.trimmingCharacters(in: .whitespaces)
        let claim = InviteClaim(code: code, password: password, displayName: takesDisplayName ? name : nil)
        let client = client
        work?.cancel()
        work = Task { [weak self] in
            let result = await client.claim(KnownServer(server), claim)
            guard !Task.isCancelled, let self else { return }
            switch result {
            case .success(let session):
                self.password = ""
                client.remember(server)
                self.send(.signedIn(session))
            case .failure(.invite(let refusal)) where refusal != .emailInUse:
                self.status = .unusable(refusal)
            case .failure(let error):
                self.status = .claimFailed(code: error.code, message: error.userMessage)
            }
        }
    }

    public func deactivate() {
        work?.cancel()
        work = nil
        pendingClaim = nil
    }

    /// Previews only.
    func showForPreview(link: String, server: VerifiedServer?, preview: InvitePreview?, status: Status, password: Int = 0) {
        linkText = link
        self.server = server
        self.preview = preview
        displayName = preview?.displayName ?? ""
        passwordLength = password
        self.status = status
    }
}

extension InviteModel.Status {
    var isClaimFailure: Bool {
        if case .claimFailed = self { return true }
        return false
    }
}
