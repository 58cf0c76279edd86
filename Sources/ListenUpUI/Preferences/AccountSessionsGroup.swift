import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

/// Preferences → General → Signed-In Devices: each place the account is
/// signed in (its name, platform and when it was last used; this one
/// marked *This device*), a *Sign Out* button on the others, and *Sign Out
/// Everywhere Else*. Followed while the window is open (read when it opens
/// or a session starts, then every ``AccountSessionsModel/followInterval``,
/// so another device signing in or out shows); hidden when signed out or
/// on a server that lists no sessions (REST v1). A failed read or change is
/// said in the group's description; the list shown stays.
@MainActor
final class AccountSessionsGroup {
    var widget: UnsafeMutablePointer<GtkWidget> { group.pointer }
    private let group: PreferencesGroup
    let signOutOthersButton: Button
    /// The signed-in session's model (it appears when a session starts).
    private let model: @MainActor () -> AccountSessionsModel?
    /// The model last read (each new one is read once as it appears).
    private weak var sessions: AccountSessionsModel?
    private var rows: [(id: String, row: TextRow, signOut: Button?)] = []
    private var shown: [AccountSession]?
    private var rowConnections: [SignalConnection] = []
    private var connections: [SignalConnection] = []
    private var observation: StateObservation?

    /// - Parameter template: the preferences window's, which holds the group.
    init(sessions model: @escaping @MainActor () -> AccountSessionsModel?, template: Template) {
        self.model = model
        (group, signOutOthersButton) = (template.child("sessions"), template.child("sign-out-others"))
        connections.append(signOutOthersButton.connect(.clicked) { [weak self] in self?.sessions?.endOthers() })
        observation = StateObservation { [weak self] in self?.follow() }
    }

    private func follow() {
        let current = model()
        if current !== sessions {
            sessions?.unfollow()
            sessions = current
            shown = nil
            current?.follow()
        }
        guard let sessions = current, sessions.isSupported else {
            group.isVisible = false
            return
        }
        let listed = sessions.sessions
        group.isVisible = listed != nil || sessions.failure != nil
        group.groupDescription = sessions.failure.map { tr("The devices could not be read or signed out: %@", $0.userMessage) }
            ?? tr("Everywhere your account is signed in to this server.")
        signOutOthersButton.isSensitive = !sessions.isBusy && (listed ?? []).contains { !$0.isCurrent }
        if let listed, listed != shown {
            shown = listed
            rebuild(listed)
        }
        for entry in rows { entry.signOut?.isSensitive = !sessions.isBusy }
    }

    private func rebuild(_ listed: [AccountSession]) {
        rowConnections.removeAll()
        for entry in rows { group.remove(entry.row) }
        rows.removeAll()
        for session in listed {
            let name = session.label ?? tr("Unknown Device")
            let row = TextRow(title: name, subtitle: Self.detail(session))
            var button: Button?
            if !session.isCurrent {
                let signOut = Button(unchecked: newObject(gtk_button_new_with_label(tr("Sign Out"))))
                gtk_widget_set_valign(signOut.pointer, GTK_ALIGN_CENTER)
                // TRANSLATORS: the accessible name of a signed-in device's Sign Out button; %@ is the device's name.
                signOut.setAccessibleLabel(tr("Sign Out %@", name))
                row.addSuffix(signOut)
                let id = session.id
                rowConnections.append(signOut.connect(.clicked) { [weak self] in self?.sessions?.end(id) })
                button = signOut
            }
            group.add(row)
            rows.append((session.id, row, button))
        }
    }

    /// "This device · Linux" or "Android · last used 27 Nov 2026, 10:02".
    static func detail(_ session: AccountSession) -> String {
        var parts: [String] = []
        if session.isCurrent { parts.append(tr("This device")) }
        if let platform = session.platform { parts.append(platform) }
        // TRANSLATORS: when a signed-in device last reached the server; %@ is a date and time.
        if !session.isCurrent { parts.append(tr("last used %@", Localization.dateAndTime(session.lastUsedAt))) }
        return parts.joined(separator: " · ")
    }

    /// The names listed, in order, and whether each has Sign Out (tests).
    var listed: [(name: String, canSignOut: Bool)] {
        rows.map { ($0.row.title, $0.signOut != nil) }
    }

    /// The Sign Out button of the session `id` (tests).
    func signOutButton(for id: String) -> Button? {
        rows.first { $0.id == id }?.signOut
    }

    func teardown() {
        observation?.cancel()
        observation = nil
        sessions?.unfollow()
        sessions = nil
        connections.removeAll()
        rowConnections.removeAll()
    }
}
