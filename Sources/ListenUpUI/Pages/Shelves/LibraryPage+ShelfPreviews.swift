import CAdwaita
import GtkBridge
import ListenUpCore

/// The shelves' previews that show more than the page: *Add to Shelf*
/// open (`library:add-to-shelf`) and New Shelf (`library:new-shelf`), each
/// written beside the window's screenshot as the page's `dialog`.
extension LibraryPage {
    /// Opens what the preview asks for, once the page is on screen.
    func openShelfPreviewOverlay() {
        switch model.shelfPreviewOverlay {
        case .addToShelf?:
            details.addToShelf?.openWhenShown()
        case .newShelf?:
            let (dialogs, widget) = (browser?.shelfDialogs, Widget(unchecked: self.widget))
            MainContext.idle { [weak dialogs] in dialogs?.edit(nil, over: widget) }
        case nil:
            break
        }
    }

    /// The popover or dialog a shelves preview shows (nil otherwise).
    var dialog: UnsafeMutablePointer<GtkWidget>? {
        switch model.shelfPreviewOverlay {
        case .addToShelf?: details.addToShelf?.popover
        case .newShelf?: browser?.shelfDialogs?.shown?.pointer
        case nil: nil
        }
    }
}
