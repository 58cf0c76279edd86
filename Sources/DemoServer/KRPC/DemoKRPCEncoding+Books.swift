import JSONToolkit
import ListenUpKRPC

extension BookSyncPayload {
    /// `BookSyncPayload` (§3.5) as an item of the `books` domain or the value
    /// of `getBook`: nullable fields without a default written as `null`;
    /// `hasScanWarning`, `cover`, `genres`, `documents`, `chapterSource`,
    /// `fieldProvenance` and `normalizationGainDb` omitted at their defaults.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("id", id)
        object.string("libraryId", libraryId)
        object.string("folderId", folderId)
        object.string("title", title)
        object.string("sortTitle", sortTitle)
        object.string("subtitle", subtitle)
        object.string("description", description)
        object.integer("publishYear", publishYear.map(Int64.init))
        object.string("publisher", publisher)
        object.string("language", language)
        object.string("isbn", isbn)
        object.string("asin", asin)
        object.bool("abridged", abridged)
        object.bool("explicit", explicit)
        object.boolIfTrue("hasScanWarning", hasScanWarning)
        object.integer("totalDuration", totalDuration)
        if let cover {
            var nested = JSONWriter.object()
            nested.string("source", cover.source.rawValue)
            nested.string("hash", cover.hash)
            object.raw("cover", nested.finished())
        }
        object.string("rootRelPath", rootRelPath)
        object.integer("inode", inode)
        object.integer("scannedAt", scannedAt)
        object.raw("contributors", JSONWriter.array(contributors.map(\.kotlinJSON)))
        object.raw("series", JSONWriter.array(series.map(\.kotlinJSON)))
        if !genres.isEmpty { object.raw("genres", JSONWriter.array(genres.map(\.kotlinJSON))) }
        object.raw("audioFiles", JSONWriter.array(audioFiles.map(\.kotlinJSON)))
        if !documents.isEmpty { object.raw("documents", JSONWriter.array(documents.map(\.kotlinJSON))) }
        object.raw("chapters", JSONWriter.array(chapters.map(\.kotlinJSON)))
        if chapterSource != .embedded { object.string("chapterSource", chapterSource.rawValue) }
        if !fieldProvenance.isEmpty {
            var nested = JSONWriter.object()
            for key in fieldProvenance.keys.sorted() {
                guard let provenance = fieldProvenance[key] else { continue }
                var entry = JSONWriter.object()
                entry.string("kind", provenance.kind)
                entry.stringIfPresent("provider", provenance.provider)
                if provenance.at != 0 { entry.integer("at", provenance.at) }
                nested.raw(key, entry.finished())
            }
            object.raw("fieldProvenance", nested.finished())
        }
        if let normalizationGainDb { object.float("normalizationGainDb", normalizationGainDb) }
        object.integer("revision", revision)
        object.integer("updatedAt", updatedAt)
        object.integer("createdAt", createdAt)
        object.integer("deletedAt", deletedAt)
        return object.finished()
    }
}

extension BookContributorPayload {
    /// `{id, name, sortName, role, creditedAs}`, nulls written.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("id", id)
        object.string("name", name)
        object.string("sortName", sortName)
        object.string("role", role.rawValue)
        object.string("creditedAs", creditedAs)
        return object.finished()
    }
}

extension BookSeriesPayload {
    /// `{id, name, sequence}`, `sequence` a number or `null`.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("id", id)
        object.string("name", name)
        object.raw("sequence", sequence.map { $0.description } ?? "null")
        return object.finished()
    }
}

extension BookGenrePayload {
    /// `{id, name, slug, path}`.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("id", id)
        object.string("name", name)
        object.string("slug", slug)
        object.string("path", path)
        return object.finished()
    }
}

extension BookAudioFilePayload {
    /// `{id, index, filename, format, codec, duration, size, …}`; the
    /// stream fields (default null) only when known.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("id", id)
        object.integer("index", Int64(index))
        object.string("filename", filename)
        object.string("format", format)
        object.string("codec", codec)
        object.integer("duration", duration)
        object.integer("size", size)
        object.stringIfPresent("codecProfile", codecProfile)
        object.stringIfPresent("spatial", spatial)
        object.integerIfPresent("bitrate", bitrate.map(Int64.init))
        object.integerIfPresent("sampleRate", sampleRate.map(Int64.init))
        object.integerIfPresent("channels", channels.map(Int64.init))
        return object.finished()
    }
}

extension BookDocumentPayload {
    /// `{id, index, filename, format, size, hash}`.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("id", id)
        object.integer("index", Int64(index))
        object.string("filename", filename)
        object.string("format", format)
        object.integer("size", size)
        object.string("hash", hash)
        return object.finished()
    }
}

extension BookChapterPayload {
    /// `{id, title, duration, startTime}`.
    var kotlinJSON: String {
        var object = JSONWriter.object()
        object.string("id", id)
        object.string("title", title)
        object.integer("duration", duration)
        object.integer("startTime", startTime)
        return object.finished()
    }
}
