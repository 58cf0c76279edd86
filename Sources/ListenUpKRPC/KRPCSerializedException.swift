import JSONToolkit

/// `org.jetbrains.krpc.SerializedException` (§2.1): an exception the peer
/// threw, as it crosses the wire. Every key is required, `cause` included
/// (it is `null` at the end of the chain).
///
/// Surface ``message`` and ``className`` only (§2.4.4). A Kotlin/Native server
/// sends the Kotlin name (`kotlin.IllegalStateException`) and an empty
/// ``stacktrace``; a JVM server the Java name and frames.
public struct KRPCSerializedException: Error, Sendable, Equatable, CustomStringConvertible {
    /// `toString()` of the exception, e.g. `"kotlin.IllegalStateException: …"`.
    public var toStringMessage: String
    /// The exception's message.
    public var message: String
    /// Frames, outermost first; empty from the native server.
    public var stacktrace: [StackElement]
    /// The exception's class name.
    public var className: String
    // An array, so the struct can hold one of itself; at most one element.
    private var causeStorage: [KRPCSerializedException]

    /// The wrapped cause, or nil at the end of the chain.
    public var cause: KRPCSerializedException? {
        get { causeStorage.first }
        set { causeStorage = newValue.map { [$0] } ?? [] }
    }

    /// One stack frame: `{clazz, method, fileName?, lineNumber}`.
    public struct StackElement: Sendable, Equatable, Codable {
        /// The class.
        public var clazz: String
        /// The method.
        public var method: String
        /// The source file, when known.
        public var fileName: String?
        /// The line, or a negative value when unknown.
        public var lineNumber: Int

        /// Creates a frame; each parameter sets the property of the same name.
        public init(clazz: String, method: String, fileName: String?, lineNumber: Int) {
            self.clazz = clazz
            self.method = method
            self.fileName = fileName
            self.lineNumber = lineNumber
        }

        enum CodingKeys: String, CodingKey {
            case clazz, method, fileName, lineNumber
        }

        /// Writes every key, `fileName` as `null` when unknown (it has no default).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(clazz, forKey: .clazz)
            try container.encode(method, forKey: .method)
            try container.encode(fileName, forKey: .fileName)
            try container.encode(lineNumber, forKey: .lineNumber)
        }
    }

    /// Creates an exception; each parameter sets the property of the same name.
    public init(toStringMessage: String, message: String, stacktrace: [StackElement] = [],
                cause: KRPCSerializedException? = nil, className: String) {
        self.toStringMessage = toStringMessage
        self.message = message
        self.stacktrace = stacktrace
        self.className = className
        self.causeStorage = cause.map { [$0] } ?? []
    }

    /// `className: message`, for logs.
    public var description: String { "\(className): \(message)" }
}

extension KRPCSerializedException: Decodable {
    private enum CodingKeys: String, CodingKey {
        case toStringMessage, message, stacktrace, cause, className
    }

    /// Decodes the exception. `stacktrace` and `cause` are tolerated when
    /// absent; the text fields are required.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(toStringMessage: try container.decode(String.self, forKey: .toStringMessage),
                  message: try container.decodeIfPresent(String.self, forKey: .message) ?? "",
                  stacktrace: try container.decodeIfPresent([StackElement].self, forKey: .stacktrace) ?? [],
                  cause: try container.decodeIfPresent(KRPCSerializedException.self, forKey: .cause),
                  className: try container.decode(String.self, forKey: .className))
    }

    /// The exception as a JSON object, keys in declaration order, `cause`
    /// always present (`null` at the end of the chain).
    var jsonText: String {
        var writer = JSONWriter.object()
        writer.string("toStringMessage", toStringMessage)
        writer.string("message", message)
        writer.raw("stacktrace", JSONWriter.array(stacktrace.map(\.jsonText)))
        writer.raw("cause", cause?.jsonText ?? "null")
        writer.string("className", className)
        return writer.finished()
    }
}

extension KRPCSerializedException.StackElement {
    /// The frame as a JSON object, keys in declaration order.
    var jsonText: String {
        var writer = JSONWriter.object()
        writer.string("clazz", clazz)
        writer.string("method", method)
        writer.string("fileName", fileName)
        writer.integer("lineNumber", Int64(lineNumber))
        return writer.finished()
    }
}
