import CGStreamer
import GStreamerABIFacts
import Testing

/// The app declares the part of GStreamer's ABI it uses itself (it loads
/// the library on first play rather than linking it: CGStreamer.h). Every
/// value and offset must be what the installed GStreamer headers say.
@Suite("GStreamer's ABI as CGStreamer declares it")
struct GStreamerABITests {
    static func fact(_ name: String) -> Int64 {
        Int64(listenup_gst_abi_fact(name))
    }

    static let constants: [(String, Int64)] = [
        ("GST_STATE_VOID_PENDING", Int64(GST_STATE_VOID_PENDING.rawValue)),
        ("GST_STATE_NULL", Int64(GST_STATE_NULL.rawValue)),
        ("GST_STATE_READY", Int64(GST_STATE_READY.rawValue)),
        ("GST_STATE_PAUSED", Int64(GST_STATE_PAUSED.rawValue)),
        ("GST_STATE_PLAYING", Int64(GST_STATE_PLAYING.rawValue)),
        ("GST_STATE_CHANGE_FAILURE", Int64(GST_STATE_CHANGE_FAILURE.rawValue)),
        ("GST_STATE_CHANGE_SUCCESS", Int64(GST_STATE_CHANGE_SUCCESS.rawValue)),
        ("GST_STATE_CHANGE_ASYNC", Int64(GST_STATE_CHANGE_ASYNC.rawValue)),
        ("GST_STATE_CHANGE_NO_PREROLL", Int64(GST_STATE_CHANGE_NO_PREROLL.rawValue)),
        ("GST_MESSAGE_EOS", Int64(GST_MESSAGE_EOS.rawValue)),
        ("GST_MESSAGE_ERROR", Int64(GST_MESSAGE_ERROR.rawValue)),
        ("GST_MESSAGE_BUFFERING", Int64(GST_MESSAGE_BUFFERING.rawValue)),
        ("GST_MESSAGE_STATE_CHANGED", Int64(GST_MESSAGE_STATE_CHANGED.rawValue)),
        ("GST_MESSAGE_APPLICATION", Int64(GST_MESSAGE_APPLICATION.rawValue)),
        ("GST_MESSAGE_ASYNC_DONE", Int64(GST_MESSAGE_ASYNC_DONE.rawValue)),
        ("GST_MESSAGE_STREAM_START", Int64(GST_MESSAGE_STREAM_START.rawValue)),
        ("GST_BUS_DROP", Int64(GST_BUS_DROP.rawValue)),
        ("GST_BUS_PASS", Int64(GST_BUS_PASS.rawValue)),
        ("GST_FORMAT_TIME", Int64(GST_FORMAT_TIME.rawValue)),
        ("GST_SEEK_TYPE_NONE", Int64(GST_SEEK_TYPE_NONE.rawValue)),
        ("GST_SEEK_TYPE_SET", Int64(GST_SEEK_TYPE_SET.rawValue)),
        ("GST_SEEK_FLAG_FLUSH", Int64(GST_SEEK_FLAG_FLUSH.rawValue)),
        ("GST_SEEK_FLAG_ACCURATE", Int64(GST_SEEK_FLAG_ACCURATE.rawValue)),
        ("GST_RESOURCE_ERROR_NOT_FOUND", Int64(GST_RESOURCE_ERROR_NOT_FOUND.rawValue)),
        ("GST_RESOURCE_ERROR_NOT_AUTHORIZED", Int64(GST_RESOURCE_ERROR_NOT_AUTHORIZED.rawValue)),
        ("GST_PAD_PROBE_TYPE_EVENT_FLUSH", Int64(GST_PAD_PROBE_TYPE_EVENT_FLUSH.rawValue)),
        ("GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM", Int64(GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)),
        ("GST_PAD_PROBE_OK", Int64(GST_PAD_PROBE_OK.rawValue)),
        ("GST_EVENT_FLUSH_STOP", Int64(GST_EVENT_FLUSH_STOP.rawValue)),
        ("GST_EVENT_SEGMENT", Int64(GST_EVENT_SEGMENT.rawValue)),
    ]

    @Test(arguments: constants)
    func enumValuesMatchTheHeaders(_ constant: (name: String, declared: Int64)) {
        #expect(Self.fact(constant.name) == constant.declared, "\(constant.name)")
    }

    @Test func structLayoutsMatchTheHeaders() {
        #expect(Self.fact("sizeof(GstMiniObject)") == Int64(MemoryLayout<GstMiniObject>.size))
        #expect(Self.fact("offsetof(GstMiniObject, refcount)") == Int64(MemoryLayout<GstMiniObject>.offset(of: \.refcount) ?? -1))
        #expect(Self.fact("offsetof(GstMiniObject, priv_pointer)") == Int64(MemoryLayout<GstMiniObject>.offset(of: \.priv_pointer) ?? -1))
        #expect(Self.fact("offsetof(GstMessage, type)") == Int64(MemoryLayout<GstMessage>.offset(of: \.type) ?? -1))
        #expect(Self.fact("offsetof(GstMessage, timestamp)") == Int64(MemoryLayout<GstMessage>.offset(of: \.timestamp) ?? -1))
        #expect(Self.fact("offsetof(GstMessage, src)") == Int64(MemoryLayout<GstMessage>.offset(of: \.src) ?? -1))
        #expect(Self.fact("offsetof(GstMessage, seqnum)") == Int64(MemoryLayout<GstMessage>.offset(of: \.seqnum) ?? -1))
        #expect(Self.fact("offsetof(GstPadProbeInfo, type)") == Int64(MemoryLayout<GstPadProbeInfo>.offset(of: \.type) ?? -1))
        #expect(Self.fact("offsetof(GstPadProbeInfo, id)") == Int64(MemoryLayout<GstPadProbeInfo>.offset(of: \.id) ?? -1))
        #expect(Self.fact("offsetof(GstPadProbeInfo, data)") == Int64(MemoryLayout<GstPadProbeInfo>.offset(of: \.data) ?? -1))
        #expect(Self.fact("offsetof(GstEvent, type)") == Int64(MemoryLayout<GstEvent>.offset(of: \.type) ?? -1))
        #expect(Self.fact("offsetof(GstSegment, flags)") == Int64(MemoryLayout<GstSegment>.offset(of: \.flags) ?? -1))
        #expect(Self.fact("offsetof(GstSegment, rate)") == Int64(MemoryLayout<GstSegment>.offset(of: \.rate) ?? -1))
        #expect(Self.fact("sizeof(GstPadProbeType)") == Int64(MemoryLayout<GstPadProbeType>.size))
        #expect(Self.fact("sizeof(GstPadProbeReturn)") == Int64(MemoryLayout<GstPadProbeReturn>.size))
        #expect(Self.fact("sizeof(GstEventType)") == Int64(MemoryLayout<GstEventType>.size))
        #expect(Self.fact("sizeof(GstClockTime)") == Int64(MemoryLayout<GstClockTime>.size))
        #expect(Self.fact("sizeof(GstState)") == Int64(MemoryLayout<GstState>.size))
        #expect(Self.fact("sizeof(GstMessageType)") == Int64(MemoryLayout<GstMessageType>.size))
        #expect(Self.fact("sizeof(GstSeekFlags)") == Int64(MemoryLayout<GstSeekFlags>.size))
        #expect(Self.fact("sizeof(GstBusSyncReply)") == Int64(MemoryLayout<GstBusSyncReply>.size))
    }

    @Test func theLoaderFindsEveryFunction() {
        let failure = listenup_gst_load().map { String(cString: $0) }
        #expect(failure == nil)
    }

    @Test func anUnknownNameIsSaidSo() {
        #expect(Self.fact("GST_NO_SUCH_THING") == -1)
    }
}
