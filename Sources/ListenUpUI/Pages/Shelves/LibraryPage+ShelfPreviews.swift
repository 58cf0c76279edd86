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
            details.opensAddToShelf = true
            details.addToShelf?.openWhenShown()
        case .newShelf?:
            browser?.shelfDialogs?.editWhenShown(over: Widget(unchecked: widget))
        case nil:
            break
        }
    }

    /// A shelves preview's dialog is not up yet (a screenshot waits for it).
    var shelfPreviewPending: Bool {
        model.shelfPreviewOverlay == .newShelf && browser?.shelfDialogs?.shown == nil
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
