/// A book's length as the library and the desktop's search write it.
public enum DurationText {
    /// "12 h 5 min", "45 min", "3 h"; "" for an unknown length (0 or less).
    /// Minutes are rounded to the nearest; a book shorter than a minute is "1 min".
    public static func short(_ milliseconds: Int64) -> String {
        guard milliseconds > 0 else { return "" }
        let minutes = Int((milliseconds + 30_000) / 60_000)
        let hours = minutes / 60
        // TRANSLATORS: a book's length, abbreviated: hours (h) and minutes (min).
        if hours == 0 { return tr("%@ min", String(max(1, minutes))) }
        if minutes % 60 == 0 { return tr("%@ h", String(hours)) }
        return tr("%@ h %@ min", String(hours), String(minutes % 60))
    }
}
