import CAdwaita
import GtkBridge
import ListenUpCore

/// Start-up: a spinner on the backdrop while the saved state is read.
@MainActor
final class LoadingPage: RoutePage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let ref: GObjectRef<UnsafeMutablePointer<GtkWidget>>

    init(model: LoadingModel) {
        widget = newObject(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        ref = GObjectRef(borrowing: widget)
        widget.addClasses(.backdrop)
        let spinner = OpaquePointer(newObject(gtk_spinner_new()))
        gtk_spinner_start(spinner)
        gtk_widget_set_size_request(spinner.widget, 32, 32)
        gtk_widget_set_vexpand(spinner.widget, 1)
        gtk_widget_set_halign(spinner.widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(spinner.widget, GTK_ALIGN_CENTER)
        spinner.setAccessibleLabel(tr("Loading"))
        gtk_box_append(widget.cast(to: GtkBox.self), spinner.widget)
    }

    func teardown() {}
}
