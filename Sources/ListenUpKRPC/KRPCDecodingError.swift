import Foundation

/// Why a text is not the kRPC frame, wrapper or DTO the caller asked for.
///
/// Every decoder in this module throws this (never traps), whatever the input:
/// empty text, HTML, a truncated frame or a frame of the wrong shape.
public enum KRPCDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not JSON at all: empty, truncated, HTML, binary.
    case notJSON
    /// Valid JSON, but a required key is absent. `path` is dotted from the
    /// root, e.g. `cause.className` or `items[3].id`.
    case missingKey(path: String)
    /// A key holds the wrong kind of value, e.g. `data` sent as an object
    /// where the contract has a JSON string, or a frame that is an array.
    case typeMismatch(path: String, expected: String)
    /// A `type` discriminator that a closed hierarchy does not know
    /// (`AppResult`, `RpcEvent`, `RegisterResult`). Open hierarchies
    /// (``KRPCMessage``, ``SyncControl``, ``AppError``) never throw this.
    case unknownType(String)
    /// JSON of the right kind whose value is unusable (a non-finite number,
    /// an out-of-range integer).
    case invalidValue(path: String, reason: String)

    /// One line for logs. Never includes the input text, which may carry
    /// tokens or passwords.
    public var description: String {
        switch self {
        case .notJSON: return "not JSON"
        case .missingKey(let path): return "missing key \(path.isEmpty ? "<root>" : path)"
        case .typeMismatch(let path, let expected): return "\(path.isEmpty ? "<root>" : path) is not \(expected)"
        case .unknownType(let type): return "unknown type \(type)"
        case .invalidValue(let path, let reason): return "invalid value at \(path.isEmpty ? "<root>" : path): \(reason)"
        }
    }

    /// The same error with `prefix` put in front of its path (used to name
    /// the item or layer an error came from).
    public func prefixed(by prefix: String) -> KRPCDecodingError {
        func join(_ path: String) -> String {
            if path.isEmpty { return prefix }
            return path.hasPrefix("[") ? prefix + path : prefix + "." + path
        }
        switch self {
        case .notJSON: return .invalidValue(path: prefix, reason: "not JSON")
        case .missingKey(let path): return .missingKey(path: join(path))
        case .typeMismatch(let path, let expected): return .typeMismatch(path: join(path), expected: expected)
        case .unknownType: return self
        case .invalidValue(let path, let reason): return .invalidValue(path: join(path), reason: reason)
        }
    }

    /// Maps Foundation's `DecodingError` (and ours, thrown from inside
    /// `init(from:)`) to a case with a readable path.
    init(_ error: any Error) {
        if let own = error as? KRPCDecodingError {
            self = own
            return
        }
        guard let decoding = error as? DecodingError else {
            self = .invalidValue(path: "", reason: String(describing: type(of: error)))
            return
        }
        switch decoding {
        case .keyNotFound(let key, let context):
            self = .missingKey(path: Self.path(context.codingPath + [key]))
        case .typeMismatch(let expected, let context):
            self = .typeMismatch(path: Self.path(context.codingPath), expected: Self.name(of: expected))
        case .valueNotFound(let expected, let context):
            self = .typeMismatch(path: Self.path(context.codingPath), expected: "non-null \(Self.name(of: expected))")
        case .dataCorrupted(let context):
            if let marker = context.underlyingError as? UnknownTypeMarker {
                self = .unknownType(marker.type)
            } else if context.codingPath.isEmpty {
                self = .notJSON
            } else {
                self = .invalidValue(path: Self.path(context.codingPath), reason: context.debugDescription)
            }
        @unknown default:
            self = .invalidValue(path: "", reason: "undecodable")
        }
    }

    /// `a.b[2].c` from a coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is Int16.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Dictionary") || name.hasPrefix("[String") { return "an object" }
            if name.hasPrefix("Array") || name.hasPrefix("[") { return "an array" }
            return "an object"
        }
    }
}

/// Carried inside `DecodingError.dataCorrupted` by the closed hierarchies, so
/// that ``KRPCDecodingError/unknownType(_:)`` survives `JSONDecoder`.
struct UnknownTypeMarker: Error {
    let type: String

    /// The error a closed hierarchy throws from `init(from:)` on an unknown `type`.
    static func error(_ type: String, codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: "unknown type \(type)",
                                             underlyingError: UnknownTypeMarker(type: type)))
    }
}

/// Why a value could not be written as contract JSON.
public enum KRPCEncodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A value JSON cannot carry, such as a NaN or infinite `playbackSpeed`
    /// (the server rejects those too).
    case invalidValue(path: String)

    /// One line for logs.
    public var description: String {
        switch self {
        case .invalidValue(let path): return "cannot encode the value at \(path.isEmpty ? "<root>" : path) as JSON"
        }
    }
}
