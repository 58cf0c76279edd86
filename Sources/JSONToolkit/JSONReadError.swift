/// Why ``JSONReader`` stopped, and where.
///
/// Some reasons are malformed JSON (``Reason-swift.enum/unexpectedEnd``,
/// ``Reason-swift.enum/unexpectedCharacter``, …); others are valid JSON this
/// strict reader does not read (``Reason-swift.enum/unsupported``: an escaped
/// key where a plain one is expected, an exponent where an integer is
/// expected), which the wire-contract fast paths hand over to `JSONDecoder`.
/// Small and comparable; built on the hot path without allocating.
public struct JSONReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: UInt8, Equatable, Sendable {
        /// The text ended inside a value.
        case unexpectedEnd
        /// A byte that cannot start or continue what was being read.
        case unexpectedCharacter
        /// Objects and arrays nested deeper than ``JSONReader/maximumDepth``.
        case tooDeep
        /// A number that is not JSON (`01`, `1.`, `-`, `.5`).
        case invalidNumber
        /// A number that does not fit the type asked for (an integer past `Int64`).
        case numberOutOfRange
        /// A backslash escape JSON does not have, or `\u` without four hex digits.
        case invalidEscape
        /// A `\u` escape of half a surrogate pair without the other half.
        case loneSurrogate
        /// A raw control character (below U+0020) inside a string.
        case controlCharacter
        /// Bytes that are not UTF-8.
        case invalidUTF8
        /// The same key twice in one object.
        case duplicateKey
        /// A value of another kind than the one asked for (a string for a number).
        case wrongType
        /// A required field is absent.
        case missingField
        /// Something other than whitespace after the document.
        case trailingText
        /// Valid JSON this reader does not read exactly as `JSONDecoder` would.
        case unsupported
    }

    /// The byte offset in the document where reading stopped.
    public var offset: Int
    /// What went wrong there.
    public var reason: Reason

    /// An error at `offset`.
    @inlinable
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// For logs: `unexpectedCharacter at byte 12`.
    public var description: String {
        "\(reason) at byte \(offset)"
    }
}
