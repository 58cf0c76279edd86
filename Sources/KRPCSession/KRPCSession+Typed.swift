import ListenUpKRPC

extension KRPCSession {
    /// Calls a known unary method; see ``call(service:method:arguments:timeout:)``.
    /// - Parameters:
    ///   - method: the method and its service.
    ///   - arguments: the encoded argument object; `"{}"` for none.
    ///   - timeout: nil: the configuration's call timeout.
    /// - Returns: the `CallSuccess` `data` (the `AppResult` JSON).
    /// - Throws: as ``call(service:method:arguments:timeout:)``.
    public func call(_ method: KRPCMethod, arguments: String = "{}", timeout: Duration? = nil) async throws -> String {
        try await call(service: method.service.rawValue, method: method.name, arguments: arguments, timeout: timeout)
    }

    /// Calls a known unary method with typed arguments and decodes its
    /// `AppResult`. A domain failure is returned as `.failure`, not thrown.
    ///
    /// Any task.
    /// - Parameters:
    ///   - method: the method and its service.
    ///   - arguments: the argument struct, e.g. `RequestArguments(loginRequest)` or `NoArguments()`.
    ///   - returning: the `T` of the method's `AppResult<T>` (`KotlinUnit` for `Unit`).
    ///   - timeout: nil: the configuration's call timeout.
    /// - Returns: the decoded result.
    /// - Throws: ``KRPCSessionError/invalidArguments(_:)``,
    ///   ``KRPCSessionError/undecodableResult(_:)``, and as
    ///   ``call(service:method:arguments:timeout:)``.
    public func call<Result: Decodable & Sendable>(_ method: KRPCMethod, arguments: some Encodable & Sendable,
                                                   returning: Result.Type,
                                                   timeout: Duration? = nil) async throws -> AppResult<Result> {
        let data = try await call(method, arguments: try Self.encode(arguments), timeout: timeout)
        do {
            return try AppResult<Result>.decode(from: data)
        } catch {
            throw KRPCSessionError.undecodableResult("\(method): \(error)")
        }
    }

    /// Starts a known Flow method; see ``stream(service:method:arguments:)``.
    /// - Parameters:
    ///   - method: the method and its service.
    ///   - arguments: the encoded argument object; `"{}"` for none.
    /// - Returns: the `RpcEvent` JSON of each element.
    public func stream(_ method: KRPCMethod, arguments: String = "{}") -> AsyncThrowingStream<String, any Error> {
        stream(service: method.service.rawValue, method: method.name, arguments: arguments)
    }

    /// Starts a known Flow method with typed arguments and decodes each
    /// element as an `RpcEvent<Element>`. Dropping the sequence unsubscribes,
    /// as for ``stream(service:method:arguments:)``.
    ///
    /// Any task; one consumer.
    /// - Parameters:
    ///   - method: the method and its service, e.g. `.observeEvents`.
    ///   - arguments: the argument struct, e.g. `ObserveEventsArguments(sinceRevision: nil)`.
    ///   - element: the `T` of the Flow's `RpcEvent<T>`, e.g. `SyncFrame`.
    /// - Returns: the decoded events; the sequence throws as the untyped
    ///   stream does, ``KRPCSessionError/invalidArguments(_:)`` at once for
    ///   arguments that cannot be encoded, and
    ///   ``KRPCSessionError/undecodableResult(_:)`` for an element that does not decode.
    public func events<Element: Decodable & Sendable>(
        _ method: KRPCMethod, arguments: some Encodable & Sendable, of element: Element.Type
    ) -> AsyncThrowingMapSequence<AsyncThrowingStream<String, any Error>, RpcEvent<Element>> {
        let raw: AsyncThrowingStream<String, any Error>
        do {
            raw = stream(method, arguments: try Self.encode(arguments))
        } catch {
            raw = AsyncThrowingStream { $0.finish(throwing: error) }
        }
        return raw.map { @Sendable data in
            do {
                return try RpcEvent<Element>.decode(from: data)
            } catch {
                throw KRPCSessionError.undecodableResult("\(method) element: \(error)")
            }
        }
    }

    /// The arguments as contract JSON.
    private static func encode(_ arguments: some Encodable) throws(KRPCSessionError) -> String {
        do {
            return try KRPCJSON.encode(arguments)
        } catch {
            throw .invalidArguments(error.description)
        }
    }
}
