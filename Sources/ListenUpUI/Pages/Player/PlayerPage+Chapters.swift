import CAdwaita
import Foundation
import GtkBridge
import ListenUpCore

extension PlayerPage {
    /// The chapter list, rebuilt only when the chapters change; the
    /// current one marked.
    func renderChapters(_ list: [PlaybackTimeline.Chapter]) {
        if list != shownChapters {
            shownChapters = list
            while let child = gtk_widget_get_first_child(chapters.pointer) { chapters.remove(child) }
            chapterRows = list.map { chapter -> UnsafeMutablePointer<GtkWidget> in
                let row = TextRow()
                (row.title, row.subtitle, row.isActivatable) = (chapter.title, PlayerControls.time(chapter.start), true)
                let mark = Image(unchecked: newObject(gtk_image_new_from_icon_name("media-playback-start-symbolic")))
                mark.addClasses(StyleClass("accent"), StyleClass("chapter-mark"))
                row.addSuffix(mark)
                chapters.append(row)
                return row.pointer
            }
        }
        for (index, row) in chapterRows.enumerated() {
            let current = index == model.chapterIndex
            // The mark shows on the current row only (style.css).
            row.setClass(StyleClass("current-chapter"), current)
            row.setAccessibleDescription(current ? tr("Playing now") : nil)
        }
    }
}
