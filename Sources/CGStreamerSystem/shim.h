// GStreamer's own header, for the one place that compiles against it: the
// test-only ABI check (GStreamerABIFacts). The app reaches GStreamer through
// CGStreamer, which loads the library on first play.
#ifndef LISTENUP_CGSTREAMERSYSTEM_SHIM_H
#define LISTENUP_CGSTREAMERSYSTEM_SHIM_H

#include <gst/gst.h>

#endif
