// Opens libgstreamer on first play and resolves the functions the engine
// calls (include/CGStreamer.h says why the app does not link it).
#include "CGStreamer.h"

#include <dlfcn.h>

ListenUpGstAPI listenup_gst;

static const char *load_result;

static const char *load(void) {
    // RTLD_GLOBAL: GStreamer's plugins, which link libgstreamer themselves,
    // find this copy, as they would in a program linked against it.
    void *library = dlopen("libgstreamer-1.0.so.0", RTLD_NOW | RTLD_GLOBAL);
    if (!library) return "libgstreamer-1.0.so.0 could not be loaded (is GStreamer installed?)";
#define RESOLVE(field, symbol)                                        \
    do {                                                              \
        *(void **)(&listenup_gst.field) = dlsym(library, symbol);     \
        if (!listenup_gst.field) return "libgstreamer lacks " symbol; \
    } while (0)
    RESOLVE(init_check, "gst_init_check");
    RESOLVE(element_factory_make, "gst_element_factory_make");
    RESOLVE(element_set_state, "gst_element_set_state");
    RESOLVE(element_get_bus, "gst_element_get_bus");
    RESOLVE(element_query_position, "gst_element_query_position");
    RESOLVE(element_seek, "gst_element_seek");
    RESOLVE(element_get_factory, "gst_element_get_factory");
    RESOLVE(object_get_name, "gst_object_get_name");
    RESOLVE(bus_set_sync_handler, "gst_bus_set_sync_handler");
    RESOLVE(message_parse_buffering, "gst_message_parse_buffering");
    RESOLVE(message_parse_group_id, "gst_message_parse_group_id");
    RESOLVE(message_parse_error, "gst_message_parse_error");
    RESOLVE(message_parse_error_details, "gst_message_parse_error_details");
    RESOLVE(message_parse_state_changed, "gst_message_parse_state_changed");
    RESOLVE(mini_object_ref, "gst_mini_object_ref");
    RESOLVE(mini_object_unref, "gst_mini_object_unref");
    RESOLVE(object_has_as_ancestor, "gst_object_has_as_ancestor");
    RESOLVE(parse_bin_from_description, "gst_parse_bin_from_description");
    RESOLVE(structure_new_empty, "gst_structure_new_empty");
    RESOLVE(structure_free, "gst_structure_free");
    RESOLVE(structure_set, "gst_structure_set");
    RESOLVE(structure_get_uint, "gst_structure_get_uint");
    RESOLVE(resource_error_quark, "gst_resource_error_quark");
    RESOLVE(stream_error_quark, "gst_stream_error_quark");
    RESOLVE(core_error_quark, "gst_core_error_quark");
    RESOLVE(bin_get_type, "gst_bin_get_type");
    RESOLVE(bin_get_by_name, "gst_bin_get_by_name");
    RESOLVE(child_proxy_get_type, "gst_child_proxy_get_type");
    RESOLVE(child_proxy_get_child_by_index, "gst_child_proxy_get_child_by_index");
    RESOLVE(element_get_static_pad, "gst_element_get_static_pad");
    RESOLVE(pad_add_probe, "gst_pad_add_probe");
    RESOLVE(event_parse_segment, "gst_event_parse_segment");
    RESOLVE(event_new_segment, "gst_event_new_segment");
    RESOLVE(event_get_seqnum, "gst_event_get_seqnum");
    RESOLVE(event_set_seqnum, "gst_event_set_seqnum");
    RESOLVE(segment_copy, "gst_segment_copy");
    RESOLVE(segment_free, "gst_segment_free");
#undef RESOLVE
    return NULL;
}

const char *listenup_gst_load(void) {
    static gsize once = 0;
    if (g_once_init_enter(&once)) {
        load_result = load();
        g_once_init_leave(&once, 1);
    }
    return load_result;
}
