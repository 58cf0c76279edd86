import Foundation
import JSONToolkit
import Testing
@testable import ListenUpKRPC

/// Loads the committed fixtures (see Fixtures/README.md) and compares JSON
/// texts as values.
enum Fixture {
    /// The text of `Fixtures/<name>`, without its trailing newline.
    static func text(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
                               "missing fixture \(name)")
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    /// The names of every `.json` fixture.
    static func allJSONNames() throws -> [String] {
        let directory = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
    }

    /// The fixture decoded as a kRPC message.
    static func message(_ name: String) throws -> KRPCMessage {
        try KRPCMessage(decoding: try text(name))
    }

    /// `text` as a JSON value, with every string member named `data`,
    /// `json` or an item of `items` that holds JSON parsed too, so that the
    /// nested layers compare as values rather than as key-ordered text.
    static func value(_ text: String) throws -> JSONValue {
        unnest(try KRPCJSON.decode(JSONValue.self, from: text))
    }

    private static func unnest(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            var result: [String: JSONValue] = [:]
            for (key, member) in members {
                if ["data", "json"].contains(key), case .string(let text) = member, let inner = try? KRPCJSON.decode(JSONValue.self, from: text) {
                    result[key] = unnest(inner)
                } else if key == "items", case .array(let items) = member {
                    result[key] = .array(items.map { item in
                        if case .string(let text) = item, let inner = try? KRPCJSON.decode(JSONValue.self, from: text) { return unnest(inner) }
                        return item
                    })
                } else {
                    result[key] = unnest(member)
                }
            }
            return .object(result)
        case .array(let items):
            return .array(items.map(unnest))
        default:
            return value
        }
    }

    /// The first key of a JSON object text (naive: the object must start
    /// with `{"`, as compact kotlinx output does).
    static func firstKey(_ text: String) -> String? {
        guard text.hasPrefix("{\"") else { return nil }
        let rest = text.dropFirst(2)
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    /// `object` with `extra` members added (used where Swift sends keys that
    /// a Kotlin encoder omits as defaults).
    static func adding(_ extra: [String: JSONValue], to object: JSONValue, at path: [String] = []) -> JSONValue {
        guard case .object(var members) = object else { return object }
        if let head = path.first {
            members[head] = adding(extra, to: members[head] ?? .object([:]), at: Array(path.dropFirst()))
        } else {
            members.merge(extra) { _, new in new }
        }
        return .object(members)
    }
}
