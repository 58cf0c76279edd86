// Opens Avahi's libraries on first use (include/CAvahi.h says why the app
// does not link them).
#include "CAvahi.h"

#include <dlfcn.h>
#include <glib.h>

static ListenUpAvahi table;
static const char *failure_of_load;

static const char *load(void) {
    // Each handle stays open for the life of the process: Avahi's objects
    // live as long as the browse or the announcement that made them.
    void *client = dlopen("libavahi-client.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!client) return "libavahi-client.so.3 could not be loaded (is Avahi installed?)";
    void *common = dlopen("libavahi-common.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!common) return "libavahi-common.so.3 could not be loaded (is Avahi installed?)";
    void *glib = dlopen("libavahi-glib.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!glib) return "libavahi-glib.so.1 could not be loaded (is Avahi's GLib integration installed?)";
#define RESOLVE(library, name)                                          \
    do {                                                                \
        *(void **)(&table.name) = dlsym(library, "avahi_" #name);       \
        if (!table.name) return "Avahi lacks avahi_" #name;             \
    } while (0)
    RESOLVE(glib, glib_poll_new);
    RESOLVE(glib, glib_poll_get);
    RESOLVE(glib, glib_poll_free);
    RESOLVE(client, client_new);
    RESOLVE(client, client_free);
    RESOLVE(client, client_errno);
    RESOLVE(common, strerror);
    RESOLVE(common, free);
    RESOLVE(client, service_browser_new);
    RESOLVE(client, service_browser_free);
    RESOLVE(client, service_resolver_new);
    RESOLVE(client, service_resolver_free);
    RESOLVE(common, address_snprint);
    RESOLVE(common, string_list_add);
    RESOLVE(common, string_list_free);
    RESOLVE(common, string_list_get_next);
    RESOLVE(common, string_list_get_size);
    RESOLVE(common, string_list_get_text);
    RESOLVE(client, entry_group_new);
    RESOLVE(client, entry_group_free);
    RESOLVE(client, entry_group_reset);
    RESOLVE(client, entry_group_is_empty);
    RESOLVE(client, entry_group_add_service_strlst);
    RESOLVE(client, entry_group_commit);
    RESOLVE(common, alternative_service_name);
#undef RESOLVE
    return NULL;
}

const ListenUpAvahi *listenup_avahi(const char **failure) {
    static gsize once = 0;
    if (g_once_init_enter(&once)) {
        failure_of_load = load();
        g_once_init_leave(&once, 1);
    }
    *failure = failure_of_load;
    return failure_of_load ? NULL : &table;
}
