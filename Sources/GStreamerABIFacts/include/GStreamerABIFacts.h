// Test support: GStreamer's ABI as the installed headers give it, for the
// test that checks CGStreamer's own declarations against it. No GStreamer
// header is included here (a Swift file imports this beside CGStreamer).
#ifndef LISTENUP_GSTREAMER_ABI_FACTS_H
#define LISTENUP_GSTREAMER_ABI_FACTS_H

/// The value of a GStreamer enum constant by its C name ("GST_STATE_PLAYING"),
/// an offset ("offsetof(GstMessage, src)") or a size ("sizeof(GstMiniObject)");
/// -1 for a name this file does not know.
long long listenup_gst_abi_fact(const char *name);

#endif
