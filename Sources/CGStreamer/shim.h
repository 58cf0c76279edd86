// GStreamer for Swift: the core header, and small inline helpers for the
// calls Swift cannot make itself (variadic functions, macros).
#ifndef LISTENUP_CGSTREAMER_SHIM_H
#define LISTENUP_CGSTREAMER_SHIM_H

#include <gst/gst.h>

static inline void listenup_gst_set_string(gpointer object, const char *name, const char *value) {
    g_object_set(object, name, value, NULL);
}

static inline void listenup_gst_set_int(gpointer object, const char *name, gint value) {
    g_object_set(object, name, value, NULL);
}

static inline void listenup_gst_set_uint(gpointer object, const char *name, guint value) {
    g_object_set(object, name, value, NULL);
}

static inline void listenup_gst_set_double(gpointer object, const char *name, gdouble value) {
    g_object_set(object, name, value, NULL);
}

static inline void listenup_gst_set_boolean(gpointer object, const char *name, gboolean value) {
    g_object_set(object, name, value, NULL);
}

static inline void listenup_gst_set_object(gpointer object, const char *name, gpointer value) {
    g_object_set(object, name, value, NULL);
}

/// Whether `object`'s class has a property called `name`.
static inline gboolean listenup_gst_has_property(gpointer object, const char *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name) != NULL;
}

/// Sets the string field `name` of `structure`.
static inline void listenup_gst_structure_set_string(GstStructure *structure, const char *name, const char *value) {
    gst_structure_set(structure, name, G_TYPE_STRING, value, NULL);
}

/// Sets souphttpsrc's `extra-headers` (a GstStructure).
static inline void listenup_gst_set_structure(gpointer object, const char *name, const GstStructure *value) {
    g_object_set(object, name, value, NULL);
}

/// The factory name of `element` ("fakesink", "pulsesink", …), or NULL.
static inline const char *listenup_gst_factory_name(GstElement *element) {
    GstElementFactory *factory = gst_element_get_factory(element);
    return factory ? gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(factory)) : NULL;
}

/// The first child of a bin (autoaudiosink's chosen sink), with a reference, or NULL.
static inline GstElement *listenup_gst_first_child(GstElement *element) {
    if (!GST_IS_BIN(element)) return NULL;
    GstElement *child = NULL;
    GST_OBJECT_LOCK(element);
    GList *children = GST_BIN_CHILDREN(GST_BIN(element));
    if (children) child = gst_object_ref(GST_ELEMENT(children->data));
    GST_OBJECT_UNLOCK(element);
    return child;
}

static inline GstMessageType listenup_gst_message_type(GstMessage *message) {
    return GST_MESSAGE_TYPE(message);
}

static inline GstObject *listenup_gst_message_source(GstMessage *message) {
    return GST_MESSAGE_SRC(message);
}

/// The HTTP status an error message's details carry (souphttpsrc), or 0.
static inline guint listenup_gst_error_http_status(GstMessage *message) {
    const GstStructure *details = NULL;
    gst_message_parse_error_details(message, &details);
    guint status = 0;
    if (details) gst_structure_get_uint(details, "http-status-code", &status);
    return status;
}

static inline GQuark listenup_gst_resource_error_quark(void) { return GST_RESOURCE_ERROR; }
static inline GQuark listenup_gst_stream_error_quark(void) { return GST_STREAM_ERROR; }
static inline GQuark listenup_gst_core_error_quark(void) { return GST_CORE_ERROR; }

#endif
