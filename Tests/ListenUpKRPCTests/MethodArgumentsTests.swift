import Testing
@testable import ListenUpKRPC

/// Argument objects (§2.4.1): every parameter sent, nulls explicit.
@Suite("Method arguments")
struct MethodArgumentsTests {
    @Test func argumentObjects() throws {
        #expect(try KRPCJSON.encode(NoArguments()) == "{}")
        #expect(try KRPCJSON.encode(LimitArguments()) == #"{"limit":20}"#)
        #expect(try KRPCJSON.encode(ObserveEventsArguments(sinceRevision: nil)) == #"{"sinceRevision":null}"#)
        #expect(try KRPCJSON.encode(ObserveEventsArguments(sinceRevision: 4711)) == #"{"sinceRevision":4711}"#)
        #expect(try KRPCJSON.encode(BookIdArguments(bookId: "b")) == #"{"bookId":"b"}"#)
        #expect(try KRPCJSON.encode(GetBookArguments(id: "b")) == #"{"id":"b"}"#)
        #expect(try KRPCJSON.encode(DigestArguments(domain: "books", cursor: 7)) == #"{"cursor":7,"domain":"books"}"#)
        #expect(try KRPCJSON.encode(PullByIdsArguments(domain: "books", match: .bookId, ids: ["a", "b"]))
            == #"{"domain":"books","ids":["a","b"],"match":"book_id"}"#)
    }

    @Test func pullDomainCallMatchesTheContract() throws {
        let call = KRPCMessage.call(callId: "1:pullDomain:5", method: .pullDomain,
                                    arguments: try KRPCJSON.encode(PullDomainArguments(domain: "books", since: 0)), connectionId: 1)
        #expect(try Fixture.value(call.encoded()) == (try Fixture.value(try Fixture.text("call_data_pull_domain.json"))))
    }

    @Test func observeEventsFromTheRetentionFloor() throws {
        let call = KRPCMessage.call(callId: "1:observeEvents:9", method: .observeEvents,
                                    arguments: try KRPCJSON.encode(ObserveEventsArguments(sinceRevision: nil)), connectionId: 1)
        #expect(call.encoded().contains(#""data":"{\"sinceRevision\":null}""#))
        #expect(call.encoded().contains(#""pluginParams":{"-32763":""}"#))
    }
}
