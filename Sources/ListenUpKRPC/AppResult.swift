import JSONToolkit

/// What every ListenUp unary method returns (§3.0), decoded from
/// ``KRPCCallSuccess/data``: `{"type":"Success","data":<T>}` or
/// `{"type":"Failure","error":<AppError>}`.
///
/// A domain failure is still a `CallSuccess` at the kRPC level (§2.4.3). Use
/// `T = KotlinUnit` for `AppResult<Unit>` and an optional `T` for
/// `AppResult<X?>`, whose `data` may be `null`.
public enum AppResult<T> {
    /// The method's value.
    case success(T)
    /// A typed domain error.
    case failure(AppError)

    /// The value, or nil on failure.
    public var value: T? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The error, or nil on success.
    public var error: AppError? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// The value, or the error thrown.
    /// - Throws: the ``AppError`` of a failure.
    public func get() throws(AppError) -> T {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }
}

extension AppResult: Sendable where T: Sendable {}
extension AppResult: Equatable where T: Equatable {}

extension AppResult: Decodable where T: Decodable {
    private enum CodingKeys: String, CodingKey {
        case type, data, error
    }

    /// Decodes by `type` (`Success` | `Failure`).
    /// - Throws: `DecodingError`; an unknown `type` surfaces as ``KRPCDecodingError/unknownType(_:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "Success": self = .success(try container.decode(T.self, forKey: .data))
        case "Failure": self = .failure(try container.decode(AppError.self, forKey: .error))
        default: throw UnknownTypeMarker.error(type, codingPath: container.codingPath)
        }
    }

    /// Decodes a `CallSuccess`'s `data` string.
    /// - Parameter data: the JSON text of the `AppResult`.
    /// - Returns: the result.
    /// - Throws: ``KRPCDecodingError``: the text is not an `AppResult` of `T`.
    public static func decode(from data: String) throws(KRPCDecodingError) -> AppResult<T> {
        // A sync page is read by hand (the same result, or a mismatch left to JSONDecoder).
        if let readable = T.self as? any JSONReadable.Type,
           let read = JSONReader.read(data, { reader throws(JSONReadError) in try reader.successResult(readable) }),
           let value = read as? T {
            return .success(value)
        }
        return try KRPCJSON.decode(AppResult<T>.self, from: data)
    }
}

/// One element of a ListenUp Flow (§3.0), decoded from
/// ``KRPCStreamMessage/data``: `{"type":"RpcEvent.Data","value":<T>}`,
/// `{"type":"RpcEvent.Error","error":<AppError>}` or `{"type":"RpcEvent.Complete"}`.
///
/// The server's guard turns a failure into a final ``error(_:)`` followed by
/// `StreamFinished` (§2.5).
public enum RpcEvent<T> {
    /// An element.
    case data(T)
    /// A typed error; the stream ends after it.
    case error(AppError)
    /// An explicit end of data.
    case complete
}

extension RpcEvent: Sendable where T: Sendable {}
extension RpcEvent: Equatable where T: Equatable {}

extension RpcEvent: Decodable where T: Decodable {
    private enum CodingKeys: String, CodingKey {
        case type, value, error
    }

    /// Decodes by `type`.
    /// - Throws: `DecodingError`; an unknown `type` surfaces as ``KRPCDecodingError/unknownType(_:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "RpcEvent.Data": self = .data(try container.decode(T.self, forKey: .value))
        case "RpcEvent.Error": self = .error(try container.decode(AppError.self, forKey: .error))
        case "RpcEvent.Complete": self = .complete
        default: throw UnknownTypeMarker.error(type, codingPath: container.codingPath)
        }
    }

    /// Decodes a `StreamMessage`'s `data` string.
    /// - Parameter data: the JSON text of the event.
    /// - Returns: the event.
    /// - Throws: ``KRPCDecodingError``.
    public static func decode(from data: String) throws(KRPCDecodingError) -> RpcEvent<T> {
        try KRPCJSON.decode(RpcEvent<T>.self, from: data)
    }
}

/// Kotlin's `Unit`: the `{}` of `AppResult<Unit>` (e.g. `logout`). Decodes
/// from any value, since nothing in it matters.
public struct KotlinUnit: Codable, Sendable, Equatable, Hashable {
    /// The one value.
    public init() {}

    /// Accepts anything (`{}` on the wire).
    public init(from decoder: any Decoder) throws {}

    /// Writes `{}`.
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: AnyCodingKey.self)
    }
}
