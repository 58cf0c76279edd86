// Opens libsecret on first use (include/CLibSecret.h says why the app does
// not link it).
#include "CLibSecret.h"

#include <dlfcn.h>

static ListenUpSecret table;
static const char *failure_of_load;

static const char *load(void) {
    // The handle stays open for the life of the process.
    void *library = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return "libsecret-1.so.0 could not be loaded (is libsecret installed?)";
#define RESOLVE(name)                                                   \
    do {                                                                \
        *(void **)(&table.name) = dlsym(library, "secret_" #name);      \
        if (!table.name) return "libsecret lacks secret_" #name;        \
    } while (0)
    RESOLVE(schema_newv);
    RESOLVE(password_storev_sync);
    RESOLVE(password_lookupv_sync);
    RESOLVE(password_free);
    RESOLVE(password_clearv_sync);
#undef RESOLVE
    return NULL;
}

const ListenUpSecret *listenup_secret(const char **failure) {
    static gsize once = 0;
    if (g_once_init_enter(&once)) {
        failure_of_load = load();
        g_once_init_leave(&once, 1);
    }
    *failure = failure_of_load;
    return failure_of_load ? NULL : &table;
}
