// GStreamer for Swift, loaded on first play.
//
// The app does not link libgstreamer: that would load it, and the libraries
// it pulls in (libdw, libelf, libunwind, …), at every start-up, though most
// runs never play. `listenup_gst_load()` opens it with dlopen and fills a
// table of the functions the engine calls; the inline functions below keep
// GStreamer's own names, so the engine reads as ordinary GStreamer code.
//
// What is declared here is the part of GStreamer 1.x's public ABI the
// engine uses: enum values, the public head of GstMiniObject and
// GstMessage, function signatures. GStreamer keeps that ABI stable across
// 1.x; a test (PlaybackTests/GStreamerABITests) compares every value and
// offset with the installed headers. Call nothing here before
// `listenup_gst_load()` has returned NULL.
#ifndef LISTENUP_CGSTREAMER_H
#define LISTENUP_CGSTREAMER_H

#include <glib-object.h>

// MARK: Types

typedef guint64 GstClockTime;
typedef struct _GstObject GstObject;
typedef struct _GstElement GstElement;
typedef struct _GstBus GstBus;
typedef struct _GstStructure GstStructure;
typedef struct _GstElementFactory GstElementFactory;
typedef struct _GstChildProxy GstChildProxy;
typedef struct _GstPad GstPad;

/// The public head of GstMiniObject (gstminiobject.h).
typedef struct _GstMiniObject {
    GType type;
    gint refcount;
    gint lockstate;
    guint flags;
    gpointer copy;
    gpointer dispose;
    gpointer free;
    guint priv_uint;
    gpointer priv_pointer;
} GstMiniObject;

typedef enum {
    GST_STATE_VOID_PENDING = 0,
    GST_STATE_NULL = 1,
    GST_STATE_READY = 2,
    GST_STATE_PAUSED = 3,
    GST_STATE_PLAYING = 4,
} GstState;

typedef enum {
    GST_STATE_CHANGE_FAILURE = 0,
    GST_STATE_CHANGE_SUCCESS = 1,
    GST_STATE_CHANGE_ASYNC = 2,
    GST_STATE_CHANGE_NO_PREROLL = 3,
} GstStateChangeReturn;

/// Flags: a bus filter is a mask of these.
typedef enum {
    GST_MESSAGE_EOS = 1u << 0,
    GST_MESSAGE_ERROR = 1u << 1,
    GST_MESSAGE_BUFFERING = 1u << 5,
    GST_MESSAGE_STATE_CHANGED = 1u << 6,
    GST_MESSAGE_APPLICATION = 1u << 14,
    GST_MESSAGE_ASYNC_DONE = 1u << 21,
    GST_MESSAGE_STREAM_START = 1u << 28,
} GstMessageType;

/// The public head of GstMessage (gstmessage.h): read, never allocated.
typedef struct _GstMessage {
    GstMiniObject mini_object;
    GstMessageType type;
    guint64 timestamp;
    GstObject *src;
    guint32 seqnum;
} GstMessage;

/// What a bus's sync handler tells the bus to do with a message.
typedef enum {
    GST_BUS_DROP = 0,
    GST_BUS_PASS = 1,
} GstBusSyncReply;

/// Called on the thread that posts each message (gstbus.h).
typedef GstBusSyncReply (*GstBusSyncHandler)(GstBus *bus, GstMessage *message, gpointer user_data);

typedef enum {
    GST_FORMAT_TIME = 3,
} GstFormat;

typedef enum {
    GST_SEEK_TYPE_NONE = 0,
    GST_SEEK_TYPE_SET = 1,
} GstSeekType;

typedef enum {
    GST_SEEK_FLAG_FLUSH = 1u << 0,
    GST_SEEK_FLAG_ACCURATE = 1u << 1,
} GstSeekFlags;

typedef enum {
    GST_RESOURCE_ERROR_NOT_FOUND = 3,
    GST_RESOURCE_ERROR_NOT_AUTHORIZED = 15,
} GstResourceError;

/// What a pad probe watches (a mask of these).
typedef enum {
    GST_PAD_PROBE_TYPE_EVENT_FLUSH = 1u << 8,
    GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM = 1u << 6,
} GstPadProbeType;

/// What a pad probe's callback tells the pad.
typedef enum {
    GST_PAD_PROBE_OK = 1,
} GstPadProbeReturn;

typedef enum {
    GST_EVENT_FLUSH_STOP = (20 << 8) | 7,
    GST_EVENT_SEGMENT = (70 << 8) | 14,
} GstEventType;

/// The public head of GstPadProbeInfo (gstpad.h): read, never allocated.
typedef struct _GstPadProbeInfo {
    GstPadProbeType type;
    gulong id;
    gpointer data;
} GstPadProbeInfo;

/// The public head of GstEvent (gstevent.h): read, never allocated.
typedef struct _GstEvent {
    GstMiniObject mini_object;
    GstEventType type;
} GstEvent;

/// The public head of GstSegment (gstsegment.h): read, and written on a
/// copy GStreamer made, never allocated.
typedef struct _GstSegment {
    guint flags;
    gdouble rate;
} GstSegment;

/// Called on the thread that sends each event the probe watches (gstpad.h).
typedef GstPadProbeReturn (*GstPadProbeCallback)(GstPad *pad, GstPadProbeInfo *info, gpointer user_data);

// MARK: The table

/// The functions the engine calls, resolved by `listenup_gst_load()`.
typedef struct {
    gboolean (*init_check)(int *argc, char ***argv, GError **error);
    GstElement *(*element_factory_make)(const gchar *factory, const gchar *name);
    GstStateChangeReturn (*element_set_state)(GstElement *element, GstState state);
    GstBus *(*element_get_bus)(GstElement *element);
    gboolean (*element_query_position)(GstElement *element, GstFormat format, gint64 *position);
    gboolean (*element_seek)(GstElement *element, gdouble rate, GstFormat format, GstSeekFlags flags,
                             GstSeekType start_type, gint64 start, GstSeekType stop_type, gint64 stop);
    GstElementFactory *(*element_get_factory)(GstElement *element);
    gchar *(*object_get_name)(GstObject *object);
    void (*bus_set_sync_handler)(GstBus *bus, GstBusSyncHandler func, gpointer user_data, GDestroyNotify notify);
    void (*message_parse_buffering)(GstMessage *message, gint *percent);
    gboolean (*message_parse_group_id)(GstMessage *message, guint *group_id);
    void (*message_parse_error)(GstMessage *message, GError **error, gchar **debug);
    void (*message_parse_error_details)(GstMessage *message, const GstStructure **details);
    void (*message_parse_state_changed)(GstMessage *message, GstState *old, GstState *current, GstState *pending);
    GstMiniObject *(*mini_object_ref)(GstMiniObject *object);
    void (*mini_object_unref)(GstMiniObject *object);
    gboolean (*object_has_as_ancestor)(GstObject *object, GstObject *ancestor);
    GstElement *(*parse_bin_from_description)(const gchar *description, gboolean ghost_unlinked_pads, GError **error);
    GstStructure *(*structure_new_empty)(const gchar *name);
    void (*structure_free)(GstStructure *structure);
    void (*structure_set)(GstStructure *structure, const gchar *field, ...);
    gboolean (*structure_get_uint)(const GstStructure *structure, const gchar *field, guint *value);
    GQuark (*resource_error_quark)(void);
    GQuark (*stream_error_quark)(void);
    GQuark (*core_error_quark)(void);
    GType (*bin_get_type)(void);
    GstElement *(*bin_get_by_name)(GstElement *bin, const gchar *name);
    GType (*child_proxy_get_type)(void);
    GObject *(*child_proxy_get_child_by_index)(GstChildProxy *parent, guint index);
    GstPad *(*element_get_static_pad)(GstElement *element, const gchar *name);
    gulong (*pad_add_probe)(GstPad *pad, GstPadProbeType mask, GstPadProbeCallback callback, gpointer user_data,
                            GDestroyNotify destroy_data);
    void (*event_parse_segment)(GstEvent *event, const GstSegment **segment);
    GstEvent *(*event_new_segment)(const GstSegment *segment);
    guint32 (*event_get_seqnum)(GstEvent *event);
    void (*event_set_seqnum)(GstEvent *event, guint32 seqnum);
    GstSegment *(*segment_copy)(const GstSegment *segment);
    void (*segment_free)(GstSegment *segment);
} ListenUpGstAPI;

extern ListenUpGstAPI listenup_gst;

/// Opens libgstreamer and resolves the table, once per process (later
/// calls answer the first call's result).
/// @return NULL when GStreamer is ready, else why not (a static string).
const char *listenup_gst_load(void);

// MARK: GStreamer's names, through the table

static inline gboolean gst_init_check(int *argc, char ***argv, GError **error) { return listenup_gst.init_check(argc, argv, error); }
static inline GstElement *gst_element_factory_make(const gchar *factory, const gchar *name) {
    return listenup_gst.element_factory_make(factory, name);
}
static inline GstStateChangeReturn gst_element_set_state(GstElement *element, GstState state) {
    return listenup_gst.element_set_state(element, state);
}
static inline GstBus *gst_element_get_bus(GstElement *element) { return listenup_gst.element_get_bus(element); }
static inline gboolean gst_element_query_position(GstElement *element, GstFormat format, gint64 *position) {
    return listenup_gst.element_query_position(element, format, position);
}
static inline gboolean gst_element_seek(GstElement *element, gdouble rate, GstFormat format, GstSeekFlags flags,
                                        GstSeekType start_type, gint64 start, GstSeekType stop_type, gint64 stop) {
    return listenup_gst.element_seek(element, rate, format, flags, start_type, start, stop_type, stop);
}
// Replaces the bus's sync handler (func NULL: none); `notify` releases
// `user_data` once the handler is replaced or the bus is finalised, after
// any call under way.
static inline void gst_bus_set_sync_handler(GstBus *bus, GstBusSyncHandler func, gpointer user_data, GDestroyNotify notify) {
    listenup_gst.bus_set_sync_handler(bus, func, user_data, notify);
}
static inline void gst_message_parse_buffering(GstMessage *message, gint *percent) {
    listenup_gst.message_parse_buffering(message, percent);
}
static inline gboolean gst_message_parse_group_id(GstMessage *message, guint *group_id) {
    return listenup_gst.message_parse_group_id(message, group_id);
}
static inline void gst_message_parse_error(GstMessage *message, GError **error, gchar **debug) {
    listenup_gst.message_parse_error(message, error, debug);
}
static inline void gst_message_parse_state_changed(GstMessage *message, GstState *old, GstState *current, GstState *pending) {
    listenup_gst.message_parse_state_changed(message, old, current, pending);
}
static inline GstMiniObject *gst_mini_object_ref(GstMiniObject *object) { return listenup_gst.mini_object_ref(object); }
static inline void gst_mini_object_unref(GstMiniObject *object) { listenup_gst.mini_object_unref(object); }
static inline gboolean gst_object_has_as_ancestor(GstObject *object, GstObject *ancestor) {
    return listenup_gst.object_has_as_ancestor(object, ancestor);
}
// GStreamer objects (elements, bins, buses) are GObjects: the engine holds
// them with GObjectOwnership's OwnedReference (GObject's own count, which
// gst_object_ref/unref wrap with tracer hooks), so they are not declared here.
// Typed as GstElement (a GstBin is one): the named element inside `bin`, with a reference, or NULL.
static inline GstElement *gst_bin_get_by_name(GstElement *bin, const gchar *name) { return listenup_gst.bin_get_by_name(bin, name); }
static inline GstElement *gst_parse_bin_from_description(const gchar *description, gboolean ghost_unlinked_pads, GError **error) {
    return listenup_gst.parse_bin_from_description(description, ghost_unlinked_pads, error);
}
// The pad called `name` of `element`, with a reference, or NULL.
static inline GstPad *gst_element_get_static_pad(GstElement *element, const gchar *name) {
    return listenup_gst.element_get_static_pad(element, name);
}
// `destroy_data` releases `user_data` once the probe is removed or the pad finalised.
static inline gulong gst_pad_add_probe(GstPad *pad, GstPadProbeType mask, GstPadProbeCallback callback, gpointer user_data,
                                       GDestroyNotify destroy_data) {
    return listenup_gst.pad_add_probe(pad, mask, callback, user_data, destroy_data);
}
static inline GstStructure *gst_structure_new_empty(const gchar *name) { return listenup_gst.structure_new_empty(name); }
static inline void gst_structure_free(GstStructure *structure) { listenup_gst.structure_free(structure); }

// MARK: Helpers for what Swift cannot call itself (variadic functions, macros)

/// `element` as the GObject instance GLib's functions take.
static inline gpointer listenup_gst_instance(GstElement *element) { return element; }

static inline void listenup_gst_set_string(GstElement *object, const char *name, const char *value) {
    g_object_set(object, name, value, NULL);
}

static inline void listenup_gst_set_int(GstElement *object, const char *name, gint value) {
    g_object_set(object, name, value, NULL);
}

static inline void listenup_gst_set_uint(GstElement *object, const char *name, guint value) {
    g_object_set(object, name, value, NULL);
}

// For a float property too (G_TYPE_FLOAT: variadic arguments carry a float as a double).
static inline void listenup_gst_set_double(GstElement *object, const char *name, gdouble value) {
    g_object_set(object, name, value, NULL);
}

static inline void listenup_gst_set_boolean(GstElement *object, const char *name, gboolean value) {
    g_object_set(object, name, value, NULL);
}

static inline void listenup_gst_set_object(GstElement *object, const char *name, GstElement *value) {
    g_object_set(object, name, value, NULL);
}

/// Whether `object`'s class has a property called `name`.
static inline gboolean listenup_gst_has_property(GstElement *object, const char *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name) != NULL;
}

/// Sets the string field `name` of `structure`.
static inline void listenup_gst_structure_set_string(GstStructure *structure, const char *name, const char *value) {
    listenup_gst.structure_set(structure, name, G_TYPE_STRING, value, NULL);
}

/// Sets souphttpsrc's `extra-headers` (a GstStructure).
static inline void listenup_gst_set_structure(GstElement *object, const char *name, const GstStructure *value) {
    g_object_set(object, name, value, NULL);
}

/// Whether `element` was made by the factory called `name` ("fakesink", …).
static inline gboolean listenup_gst_made_by(GstElement *element, const char *name) {
    GstElementFactory *factory = listenup_gst.element_get_factory(element);
    if (!factory) return FALSE;
    gchar *factory_name = listenup_gst.object_get_name((GstObject *)factory);
    gboolean same = factory_name && g_strcmp0(factory_name, name) == 0;
    g_free(factory_name);
    return same;
}

/// The first child of a bin (autoaudiosink's chosen sink), with a reference, or NULL.
static inline GstElement *listenup_gst_first_child(GstElement *element) {
    if (!g_type_check_instance_is_a((GTypeInstance *)element, listenup_gst.bin_get_type())) return NULL;
    GstChildProxy *proxy = (GstChildProxy *)g_type_check_instance_cast((GTypeInstance *)element, listenup_gst.child_proxy_get_type());
    return (GstElement *)listenup_gst.child_proxy_get_child_by_index(proxy, 0);
}

static inline GstMessageType listenup_gst_message_type(GstMessage *message) { return message->type; }

static inline GstObject *listenup_gst_message_source(GstMessage *message) { return message->src; }

/// The type of the event a probe of GST_PAD_PROBE_TYPE_EVENT_FLUSH was called for.
static inline GstEventType listenup_gst_probe_event_type(GstPadProbeInfo *info) { return ((GstEvent *)info->data)->type; }

/// In a probe of downstream events: when the event is a SEGMENT at rate 1
/// and `rate` is another, puts a copy at `rate` in its place (scaletempo,
/// after the probe, plays the stream at that speed from its first sample).
/// @return whether it did.
static inline gboolean listenup_gst_probe_segment_at_rate(GstPadProbeInfo *info, gdouble rate) {
    GstEvent *event = (GstEvent *)info->data;
    if (!event || event->type != GST_EVENT_SEGMENT || rate == 1.0) return FALSE;
    const GstSegment *segment = NULL;
    listenup_gst.event_parse_segment(event, &segment);
    if (!segment || segment->rate != 1.0) return FALSE;
    GstSegment *copy = listenup_gst.segment_copy(segment);
    copy->rate = rate;
    GstEvent *replacement = listenup_gst.event_new_segment(copy);
    listenup_gst.segment_free(copy);
    if (!replacement) return FALSE;
    listenup_gst.event_set_seqnum(replacement, listenup_gst.event_get_seqnum(event));
    listenup_gst.mini_object_unref((GstMiniObject *)event);
    info->data = replacement;
    return TRUE;
}

/// The HTTP status an error message's details carry (souphttpsrc), or 0.
static inline guint listenup_gst_error_http_status(GstMessage *message) {
    const GstStructure *details = NULL;
    listenup_gst.message_parse_error_details(message, &details);
    guint status = 0;
    if (details) listenup_gst.structure_get_uint(details, "http-status-code", &status);
    return status;
}

static inline GQuark listenup_gst_resource_error_quark(void) { return listenup_gst.resource_error_quark(); }
static inline GQuark listenup_gst_stream_error_quark(void) { return listenup_gst.stream_error_quark(); }
static inline GQuark listenup_gst_core_error_quark(void) { return listenup_gst.core_error_quark(); }

#endif
