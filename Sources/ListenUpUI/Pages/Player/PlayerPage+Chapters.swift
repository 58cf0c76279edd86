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
            chapterRows = list.map { chapter in
                let row = newObject(adw_action_row_new())
                adw_preferences_row_set_title(row.cast(to: AdwPreferencesRow.self), chapter.title)
                adw_preferences_row_set_use_markup(row.cast(to: AdwPreferencesRow.self), 0)
                adw_action_row_set_subtitle(row.cast(to: AdwActionRow.self), PlayerControls.time(chapter.start))
                gtk_list_box_row_set_activatable(row.cast(to: GtkListBoxRow.self), 1)
                let mark = newObject(gtk_image_new_from_icon_name("media-playback-start-symbolic"))
                mark.addClasses(StyleClass("accent"), StyleClass("chapter-mark"))
                adw_action_row_add_suffix(row.cast(to: AdwActionRow.self), mark)
                chapters.append(row)
                return row
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
