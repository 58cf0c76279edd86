import Foundation
import JSONToolkit

/// A ListenUp v1 response body, decoded. The server wraps every huma
/// response in an envelope whose `v` must be 1 (contract §2).
public enum APIEnvelope<Payload> {
    /// `{"v":1,"success":true,"data":…}`; `data` is absent for handlers with no body.
    case success(Payload?)
    /// `{"v":1,"success":false,"error":"…"}` or the detailed
    /// `{"v":1,"code":"…","message":"…","details":…}`.
    case failure(APIFailure)
}

extension APIEnvelope: Sendable where Payload: Sendable {}
extension APIEnvelope: Equatable where Payload: Equatable {}

/// An error envelope. The simple shape carries only a message; the detailed
/// one adds a code (details are kept as raw JSON text).
public struct APIFailure: Error, Equatable, Sendable {
    /// Human text from the server. A 422 echoes the request body, passwords
    /// included: never log it.
    public var message: String
    /// The detailed shape's code (e.g. `VALIDATION`); nil for the simple shape.
    public var code: String?
    /// The detailed shape's `details`, as compact JSON text.
    public var details: String?

    public init(message: String, code: String? = nil, details: String? = nil) {
        self.message = message
        self.code = code
        self.details = details
    }
}

/// Why a body is not a usable envelope.
public enum EnvelopeDecodingError: Error, Equatable, Sendable {
    /// Not a JSON object at all: HTML, chi's `404 page not found`, truncated
    /// or empty bodies.
    case notJSON
    /// A JSON object, but not shaped like an envelope.
    case notAnEnvelope
    /// No `v` key, or `v` is not a number.
    case missingVersion
    /// `v` is a number other than 1.
    case unsupportedVersion(Int?)
    /// A success envelope whose `data` does not match the expected type.
    case payloadMismatch(String)
}

extension APIEnvelope where Payload: Decodable {
    /// Decodes `data` as an envelope carrying `Payload`.
    public static func decode(_ data: Data, as type: Payload.Type = Payload.self) throws(EnvelopeDecodingError) -> APIEnvelope<Payload> {
        // A page of books is read by hand (JSONReader: the same values, or
        // an error that leaves the text to the paths below).
        if let readable = Payload.self as? any JSONReadable.Type,
           let read = JSONReader.read(data, { reader throws(JSONReadError) in ReadPayload(try reader.successEnvelope(readable)) }) {
            return .success(read.payload.flatMap { $0 as? Payload })
        }
        // The common case in one Codable pass. Anything else (errors, odd
        // shapes) takes the slower path below, which tells the cases apart.
        if let fast = try? ListenUpJSON.decoder.decode(SuccessEnvelope<Payload>.self, from: data), fast.v == 1, fast.success {
            return .success(fast.data)
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data, options: [])) as? [String: Any] else {
            throw .notJSON
        }
        guard let version = object["v"] as? NSNumber else { throw .missingVersion }
        let value = version.doubleValue
        guard value == 1 else {
            throw .unsupportedVersion(value.isFinite && value == value.rounded() && abs(value) < 1e9 ? Int(value) : nil)
        }

        if let success = object["success"] as? Bool {
            if success {
                guard let payload = object["data"], !(payload is NSNull) else { return .success(nil) }
                do {
                    let raw = try JSONSerialization.data(withJSONObject: payload, options: [.fragmentsAllowed])
                    return .success(try ListenUpJSON.decoder.decode(Payload.self, from: raw))
                } catch {
                    throw .payloadMismatch(String(describing: error))
                }
            }
            guard let message = object["error"] as? String else { throw .notAnEnvelope }
            return .failure(APIFailure(message: message))
        }
        // The detailed error shape has no `success` key.
        if let code = object["code"] as? String, let message = object["message"] as? String {
            let details = object["details"].flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed, .sortedKeys]) }
            return .failure(APIFailure(message: message, code: code, details: details.map { String(decoding: $0, as: UTF8.self) }))
        }
        throw .notAnEnvelope
    }
}

/// What ``JSONReader`` read as an envelope's `data` (nil: null or absent).
private struct ReadPayload {
    let payload: (any JSONReadable)?

    init(_ payload: (any JSONReadable)?) {
        self.payload = payload
    }
}

/// `{"v":1,"success":true,"data":…}`, decoded in one pass.
private struct SuccessEnvelope<Payload: Decodable>: Decodable {
    let v: Double
    let success: Bool
    let data: Payload?
}

/// Writes envelopes the way the server does: compact JSON, keys in the
/// order `v`, `success`, `data` (or `error`), `<`, `>`, `&` and `/` not
/// escaped, and a trailing newline.
public enum EnvelopeEncoder {
    /// `{"v":1,"success":true,"data":<payload>}\n`.
    public static func success<Payload: Encodable>(_ payload: Payload) throws -> Data {
        var body = Data(#"{"v":1,"success":true,"data":"#.utf8)
        body.append(try ListenUpJSON.encoder.encode(payload))
        body.append(Data("}\n".utf8))
        return body
    }

    /// `{"v":1,"success":true}\n` (a handler with no body).
    public static func emptySuccess() -> Data {
        Data("{\"v\":1,\"success\":true}\n".utf8)
    }

    /// `{"v":1,"success":false,"error":"<message>"}\n`.
    public static func failure(_ message: String) -> Data {
        let quoted = (try? ListenUpJSON.encoder.encode(message)) ?? Data("\"\"".utf8)
        var body = Data(#"{"v":1,"success":false,"error":"#.utf8)
        body.append(quoted)
        body.append(Data("}\n".utf8))
        return body
    }
}

/// The JSON coders for the wire: snake_case keys are spelled out in each
/// type's `CodingKeys`; dates are RFC 3339 (see ``RFC3339``).
public enum ListenUpJSON {
    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = RFC3339.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 time: \(text)")
            }
            return date
        }
        return decoder
    }

    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: date))
        }
        return encoder
    }
}
