import Foundation
import ListenUpCore

extension MainWindow {
    /// A series, person or genre page asked for that the library does not
    /// have (deleted on the server, or a Shell search result older than the
    /// cache) is said in a toast, once per time it is asked for; the
    /// library stays as it was.
    func followMissingPage(_ browse: BrowseModel) {
        guard let missing = browse.missingPage else {
            shownMissingPage = nil
            return
        }
        guard missing != shownMissingPage else { return }
        shownMissingPage = missing
        showToast(tr("That page is not in the library any more."))
    }
}
