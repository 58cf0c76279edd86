import KRPCSession
import ListenUpCore
import ListenUpKRPC

extension KRPCServerConnection {
    /// A Flow call on the public socket, as the seam's stream: `map` turns
    /// each element into a value (nil: a word this app does not know,
    /// skipped), and the stream ends after a value `isLast` picks, when the
    /// Flow completes, or with the error an error event or the socket maps
    /// to (``KRPCErrorMapping``). Ending the stream cancels the call.
    func publicFlow<Arguments: Encodable & Sendable, Element: Decodable & Sendable, Value: Sendable>(
        _ method: KRPCMethod, arguments: Arguments, of element: Element.Type,
        map: @escaping @Sendable (Element) -> Value?, isLast: @escaping @Sendable (Value) -> Bool = { _ in false }
    ) async throws(ServerError) -> AsyncThrowingStream<Value, any Error> {
        let socket: KRPCSession
        do { socket = try await self.socket(.public) } catch { throw KRPCErrorMapping.error(error) }
        let events = await socket.events(method, arguments: arguments, of: element)
        return AsyncThrowingStream { continuation in
            let reader = Task {
                do {
                    for try await event in events {
                        switch event {
                        case .data(let element):
                            guard let value = map(element) else { continue }
                            continuation.yield(value)
                            if isLast(value) {
                                continuation.finish()
                                return
                            }
                        case .error(let error):
                            continuation.finish(throwing: KRPCErrorMapping.error(error))
                            return
                        case .complete:
                            continuation.finish()
                            return
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: KRPCErrorMapping.error(error))
                }
            }
            continuation.onTermination = { _ in reader.cancel() }
        }
    }
}
