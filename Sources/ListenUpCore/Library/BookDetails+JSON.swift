import Foundation

extension BookDetails {
    /// The details as JSON, byte for byte what `JSONEncoder` writes with
    /// `outputFormatting = .sortedKeys` (so a row stored again unchanged
    /// still compares equal), written by hand: keys in byte order, absent
    /// optionals left out, `/` escaped as `\/`, control characters as
    /// `\b \t \n \f \r` or `\u00xx`, everything else raw. A sync writes
    /// this for every book, and Foundation's encoder took most of the
    /// time of storing a page of real-sized books (docs/performance.md).
    public var sortedKeysJSON: Data {
        var out = JSONBytes()
        out.reserve(256 + (description?.utf8.count ?? 0) + chapters.count * 64 + (audioFiles?.count ?? 0) * 64)
        out.byte(UInt8(ascii: "{"))
        var first = true
        func key(_ name: StaticString) {
            if !first { out.byte(UInt8(ascii: ",")) }
            first = false
            out.key(name)
        }
        if let audioFiles {
            key("audioFiles")
            out.array(audioFiles) { out, file in
                out.byte(UInt8(ascii: "{"))
                out.key("duration")
                out.integer(file.duration)
                out.byte(UInt8(ascii: ","))
                out.key("format")
                out.string(file.format)
                out.byte(UInt8(ascii: ","))
                out.key("id")
                out.string(file.id)
                out.byte(UInt8(ascii: ","))
                out.key("size")
                out.integer(file.size)
                out.byte(UInt8(ascii: "}"))
            }
        }
        key("chapters")
        out.array(chapters) { out, chapter in
            out.byte(UInt8(ascii: "{"))
            out.key("duration")
            out.integer(chapter.duration)
            out.byte(UInt8(ascii: ","))
            if let id = chapter.id {
                out.key("id")
                out.string(id)
                out.byte(UInt8(ascii: ","))
            }
            out.key("start")
            out.integer(chapter.start)
            out.byte(UInt8(ascii: ","))
            out.key("title")
            out.string(chapter.title)
            out.byte(UInt8(ascii: "}"))
        }
        key("contributors")
        out.array(contributors) { out, person in
            out.byte(UInt8(ascii: "{"))
            out.key("name")
            out.string(person.name)
            out.byte(UInt8(ascii: ","))
            out.key("roles")
            out.array(person.roles) { out, role in out.string(role) }
            out.byte(UInt8(ascii: "}"))
        }
        if let description {
            key("description")
            out.string(description)
        }
        if let publishYear {
            key("publishYear")
            out.string(publishYear)
        }
        if let publisher {
            key("publisher")
            out.string(publisher)
        }
        if let subtitle {
            key("subtitle")
            out.string(subtitle)
        }
        out.byte(UInt8(ascii: "}"))
        return Data(out.bytes)
    }
}

/// JSON written into a byte buffer the way Foundation's `JSONEncoder` does
/// (see ``BookDetails/sortedKeysJSON``).
private struct JSONBytes {
    var bytes: [UInt8] = []

    mutating func reserve(_ count: Int) {
        bytes.reserveCapacity(count)
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// `"name":` (the names are plain ASCII).
    mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func integer(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func array<Element>(_ elements: [Element], _ write: (inout JSONBytes, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(&self, element)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A string literal, escaped as `JSONEncoder` escapes it by default.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated() {
                let escape: UInt8
                switch byte {
                case UInt8(ascii: "\""): escape = UInt8(ascii: "\"")
                case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
                case UInt8(ascii: "/"): escape = UInt8(ascii: "/")
                case 0x08: escape = UInt8(ascii: "b")
                case 0x09: escape = UInt8(ascii: "t")
                case 0x0A: escape = UInt8(ascii: "n")
                case 0x0C: escape = UInt8(ascii: "f")
                case 0x0D: escape = UInt8(ascii: "r")
                case 0..<0x20: escape = UInt8(ascii: "u")
                default: continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(escape)
                if escape == UInt8(ascii: "u") {
                    func hex(_ digit: UInt8) -> UInt8 { digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10 }
                    bytes.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: "0"), hex(byte >> 4), hex(byte & 0x0F)])
                }
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
