import Foundation
import JSONToolkit

extension BookDetails {
    /// The details as JSON, byte for byte what `JSONEncoder` writes with
    /// `outputFormatting = .sortedKeys` (so a row stored again unchanged
    /// still compares equal), written by hand: keys in byte order, absent
    /// optionals left out, `/` escaped as `\/`, control characters as
    /// `\b \t \n \f \r` or `\u00xx`, everything else raw. A sync writes
    /// this for every book, and Foundation's encoder took most of the
    /// time of storing a page of real-sized books (docs/performance.md).
    public var sortedKeysJSON: Data {
        var out = JSONWriter(escapingSlash: true,
                             capacity: 256 + (description?.utf8.count ?? 0) + chapters.count * 64 + (audioFiles?.count ?? 0) * 64)
        out.beginObject()
        if let audioFiles {
            out.key("audioFiles")
            out.array(audioFiles) { out, file in
                out.beginObject()
                out.key("duration")
                out.integer(file.duration)
                out.key("format")
                out.string(file.format)
                out.key("id")
                out.string(file.id)
                out.key("size")
                out.integer(file.size)
                out.endObject()
            }
        }
        out.key("chapters")
        out.array(chapters) { out, chapter in
            out.beginObject()
            out.key("duration")
            out.integer(chapter.duration)
            if let id = chapter.id {
                out.key("id")
                out.string(id)
            }
            out.key("start")
            out.integer(chapter.start)
            out.key("title")
            out.string(chapter.title)
            out.endObject()
        }
        out.key("contributors")
        out.array(contributors) { out, person in
            out.beginObject()
            out.key("name")
            out.string(person.name)
            out.key("roles")
            out.array(person.roles) { out, role in out.string(role) }
            out.endObject()
        }
        if let description {
            out.key("description")
            out.string(description)
        }
        if let publishYear {
            out.key("publishYear")
            out.string(publishYear)
        }
        if let publisher {
            out.key("publisher")
            out.string(publisher)
        }
        if let subtitle {
            out.key("subtitle")
            out.string(subtitle)
        }
        return Data(out.finishedBytes())
    }
}
