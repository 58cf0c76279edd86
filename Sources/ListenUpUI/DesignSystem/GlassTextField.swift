import CAdwaita
import GtkBridge
import ListenUpCore

/// A labelled text field on glass: label above, placeholder inside, error
/// text under the field. The label is the entry's accessible name; an error
/// becomes its accessible description, so screen readers announce it.
@MainActor
public final class GlassTextField {
    /// The field (heading, entry, error).
    public let widget: UnsafeMutablePointer<GtkWidget>
    /// The `GtkEntry`.
    public let entry: UnsafeMutablePointer<GtkWidget>
    private let field: Entry
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    let errorLabel: Label
    private var connections: [SignalConnection] = []

    /// - Parameters:
    ///   - label: the heading above the entry; it names the entry for screen
    ///     readers too (its mnemonic widget, a labelled-by relation: a label
    ///     property as well would make them say it twice).
    ///   - placeholder: the hint inside the empty entry.
    ///   - purpose: what the text is, for input methods.
    ///   - isSecret: a password: dots, with an icon to show it.
    public init(label: String, placeholder: String, purpose: GtkInputPurpose = GTK_INPUT_PURPOSE_FREE_FORM, isSecret: Bool = false) {
        let ui = PageTemplates.load("glass-text-field")
        let root: Box
        (root, ref) = ui.root("root")
        widget = root.pointer
        field = ui.child("entry")
        entry = field.pointer
        errorLabel = ui.child("error")
        ui.child("title", as: Label.self).text = label
        field.placeholder = placeholder
        field.purpose = isSecret ? GTK_INPUT_PURPOSE_PASSWORD : purpose
        if isSecret {
            field.isTextVisible = false
            field.setSecondaryIcon("view-reveal-symbolic", tooltip: tr("Show Password"))
            watchRevealIcon()
        }
    }

    /// The entry's text. Only real changes are written: setting the same
    /// text moves the cursor.
    public var text: String {
        get { field.text }
        set { if newValue != text { field.text = newValue } }
    }

    /// The error under the entry (nil: none): shown, announced, and the
    /// entry's accessible description.
    public var errorText: String? {
        didSet {
            guard errorText != oldValue else { return }
            errorLabel.text = errorText ?? ""
            errorLabel.isVisible = errorText != nil
            entry.setClass(.error, errorText != nil)
            entry.setAccessibleDescription(errorText)
        }
    }

    /// Runs `action` with the new text on each edit.
    public func onChange(_ action: @escaping @MainActor (String) -> Void) {
        connections.append(entry.connect(.changed) { [weak self] in
            guard let self else { return }
            action(self.text)
        })
    }

    /// The eye icon of a password shows or hides it.
    private func watchRevealIcon() {
        connections.append(entry.connect(.iconPress) { [weak self] _ in
            guard let self else { return }
            let shown = !self.field.isTextVisible
            self.field.isTextVisible = shown
            self.field.setSecondaryIcon(shown ? "view-conceal-symbolic" : "view-reveal-symbolic",
                                        tooltip: shown ? tr("Hide Password") : tr("Show Password"))
        })
    }

    /// Runs `action` on Enter.
    public func onActivate(_ action: @escaping @MainActor () -> Void) {
        connections.append(entry.connect(.activate, action))
    }

    /// Puts the keyboard focus in the entry, without selecting its text.
    public func grabFocus() {
        field.focusWithoutSelecting()
    }
}
