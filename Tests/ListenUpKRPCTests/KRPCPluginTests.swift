import Testing
@testable import ListenUpKRPC

/// Short-enum codes (§2.2): index − 32768, unknown values kept.
@Suite("KRPCPlugin")
struct KRPCPluginTests {
    @Test func pluginIndices() {
        #expect(KRPCPlugin.all.map(\.index) == [1, 2, 3, 4, 5])
        #expect(KRPCPlugin.all.map(\.rawValue) == [-32_767, -32_766, -32_765, -32_764, -32_763])
        #expect(KRPCPlugin.backpressure.description == "BACKPRESSURE")
        #expect(!KRPCPlugin(rawValue: 0).isKnown)
    }

    @Test func pluginKeys() {
        let keys: [KRPCPluginKey] = [.genericMessageType, .cancellationType, .cancellationId, .clientServiceId,
                                     .nonSuspendingServerFlowMarker, .windowUpdate, .windowKey]
        #expect(keys.map { $0.rawValue + 32_768 } == [1, 2, 3, 4, 5, 6, 7])
        #expect(KRPCPluginKey.nonSuspendingServerFlowMarker.wireKey == "-32763")
        #expect(KRPCPluginKey(wireKey: "-32762") == .windowUpdate)
        #expect(KRPCPluginKey(wireKey: " 32766") == KRPCPluginKey(rawValue: 32_766))
        #expect(KRPCPluginKey(wireKey: "WINDOW") == nil)
        #expect(keys.sorted() == keys)
    }

    @Test func cancellationTypesAreSentByName() {
        #expect([KRPCCancellationType.endpoint, .request, .service, .cancellationAck].map(\.rawValue)
            == ["ENDPOINT", "REQUEST", "SERVICE", "CANCELLATION_ACK"])
    }
}
