#include "GStreamerABIFacts.h"

#include <gst/gst.h>
#include <stddef.h>
#include <string.h>

long long listenup_gst_abi_fact(const char *name) {
#define FACT(expression) if (strcmp(name, #expression) == 0) return (long long)(expression);
    FACT(GST_STATE_VOID_PENDING) FACT(GST_STATE_NULL) FACT(GST_STATE_READY) FACT(GST_STATE_PAUSED) FACT(GST_STATE_PLAYING)
    FACT(GST_STATE_CHANGE_FAILURE) FACT(GST_STATE_CHANGE_SUCCESS) FACT(GST_STATE_CHANGE_ASYNC) FACT(GST_STATE_CHANGE_NO_PREROLL)
    FACT(GST_MESSAGE_EOS) FACT(GST_MESSAGE_ERROR) FACT(GST_MESSAGE_BUFFERING) FACT(GST_MESSAGE_STATE_CHANGED)
    FACT(GST_MESSAGE_APPLICATION) FACT(GST_MESSAGE_ASYNC_DONE) FACT(GST_MESSAGE_STREAM_START)
    FACT(GST_BUS_DROP) FACT(GST_BUS_PASS)
    FACT(GST_FORMAT_TIME) FACT(GST_SEEK_TYPE_NONE) FACT(GST_SEEK_TYPE_SET) FACT(GST_SEEK_FLAG_FLUSH) FACT(GST_SEEK_FLAG_ACCURATE)
    FACT(GST_RESOURCE_ERROR_NOT_FOUND) FACT(GST_RESOURCE_ERROR_NOT_AUTHORIZED)
    FACT(GST_PAD_PROBE_TYPE_EVENT_FLUSH) FACT(GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) FACT(GST_PAD_PROBE_OK)
    FACT(GST_EVENT_FLUSH_STOP) FACT(GST_EVENT_SEGMENT)
    FACT(offsetof(GstSegment, flags)) FACT(offsetof(GstSegment, rate))
    FACT(offsetof(GstPadProbeInfo, type)) FACT(offsetof(GstPadProbeInfo, id)) FACT(offsetof(GstPadProbeInfo, data))
    FACT(offsetof(GstEvent, type))
    FACT(sizeof(GstPadProbeType)) FACT(sizeof(GstPadProbeReturn)) FACT(sizeof(GstEventType))
    FACT(sizeof(GstMiniObject)) FACT(offsetof(GstMiniObject, refcount)) FACT(offsetof(GstMiniObject, priv_pointer))
    FACT(offsetof(GstMessage, type)) FACT(offsetof(GstMessage, timestamp)) FACT(offsetof(GstMessage, src))
    FACT(offsetof(GstMessage, seqnum))
    FACT(sizeof(GstClockTime)) FACT(sizeof(GstState)) FACT(sizeof(GstMessageType)) FACT(sizeof(GstSeekFlags)) FACT(sizeof(GstBusSyncReply))
#undef FACT
    return -1;
}
