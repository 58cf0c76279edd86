import CAdwaita

/// `AdwMessageDialog`: a heading, a body, an optional extra child and a row
/// of responses (the template lists them, with their appearances and the
/// default and close responses).
public struct MessageDialog: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { adw_message_dialog_get_type() }
}

@MainActor
extension MessageDialog {
    private var dialog: UnsafeMutablePointer<AdwMessageDialog> { pointer.cast(to: AdwMessageDialog.self) }

    /// The dialog as a window (present, destroy, transient parent).
    public var window: Window { Window(unchecked: pointer) }

    /// The heading, as plain text.
    public var heading: String {
        get { adw_message_dialog_get_heading(dialog).map { String(cString: $0) } ?? "" }
        nonmutating set { adw_message_dialog_set_heading(dialog, newValue) }
    }

    /// The body, as plain text.
    public var body: String {
        get { text(adw_message_dialog_get_body(dialog)) }
        nonmutating set { adw_message_dialog_set_body(dialog, newValue) }
    }

    /// Chooses the response `id`, as a click on its button does (emits
    /// `response`).
    public func respond(_ id: String) { adw_message_dialog_response(dialog, id) }

    /// The label of the response `id`, or nil when there is no such response.
    public func responseLabel(_ id: String) -> String? {
        guard adw_message_dialog_has_response(dialog, id) != 0 else { return nil }
        return text(adw_message_dialog_get_response_label(dialog, id))
    }

    /// How the response `id`'s button looks (suggested, destructive, …).
    public func responseAppearance(_ id: String) -> AdwResponseAppearance {
        adw_message_dialog_get_response_appearance(dialog, id)
    }

    /// The response Enter chooses.
    public var defaultResponse: String? { adw_message_dialog_get_default_response(dialog).map { String(cString: $0) } }

    /// The response Escape (or closing the dialog) chooses.
    public var closeResponse: String { text(adw_message_dialog_get_close_response(dialog)) }

    /// The widget under the body, if any.
    public var extraChild: Widget? { adw_message_dialog_get_extra_child(dialog).map { Widget($0) } }
}

/// A C string GTK returns (NULL: unset) as text ("" for unset).
private func text(_ string: UnsafePointer<CChar>?) -> String { string.map { String(cString: $0) } ?? "" }

/// `AdwAboutWindow`: what the app is, who makes it, its licence.
public struct AboutDialog: WidgetHandle {
    public let pointer: UnsafeMutablePointer<GtkWidget>
    public init(unchecked pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }
    public static var gtkType: GType { adw_about_window_get_type() }
}

@MainActor
extension AboutDialog {
    /// The dialog as a window (present, destroy, transient parent).
    public var window: Window { Window(unchecked: pointer) }

    /// The version shown under the name.
    public var version: String {
        get { text(adw_about_window_get_version(opaque)) }
        nonmutating set { adw_about_window_set_version(opaque, newValue) }
    }

    /// The translators credited, one per line ("" for none).
    public var translatorCredits: String {
        get { text(adw_about_window_get_translator_credits(opaque)) }
        nonmutating set { adw_about_window_set_translator_credits(opaque, newValue) }
    }

    /// What the window shows besides the version and the credits: the
    /// name, the icon's name, the developers, the comments, the website,
    /// the issue address and the licence (what a template set; tests).
    public var shown: (name: String, icon: String, developer: String, comments: String, website: String, issues: String, license: GtkLicense) {
        (text(adw_about_window_get_application_name(opaque)), text(adw_about_window_get_application_icon(opaque)),
         text(adw_about_window_get_developer_name(opaque)), text(adw_about_window_get_comments(opaque)),
         text(adw_about_window_get_website(opaque)), text(adw_about_window_get_issue_url(opaque)),
         adw_about_window_get_license_type(opaque))
    }
}

@MainActor
extension Window {
    /// Keeps the window over `parent` (and centred on it, modal or not).
    public func setTransientFor(_ parent: some GPointer) {
        gtk_window_set_transient_for(pointer.cast(to: GtkWindow.self), parent.cast(to: GtkWindow.self))
    }

    /// Whether the window blocks input to its parent while open.
    public var isModal: Bool { gtk_window_get_modal(pointer.cast(to: GtkWindow.self)) != 0 }
}
