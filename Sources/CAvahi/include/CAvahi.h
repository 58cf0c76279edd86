// Avahi for Swift, opened on first use.
//
// The app does not link avahi-client: that would load it, and what it pulls
// in (libdbus, libsystemd and theirs), before `main` at every start-up, and
// put their symbols in the scope every later symbol look-up searches
// (docs/performance.md, "Libraries opened when first used"). Only the server
// setup page browses and only the demo server announces, each on a thread
// of its own, where the first call opens the libraries: a signed-in launch
// never loads them.
// Avahi's own headers give the types and constants; `listenup_avahi()`
// opens the three libraries and returns a table of the functions
// LANDiscovery calls, each typed from the header's declaration, so a
// mismatch cannot compile.
#ifndef LISTENUP_CAVAHI_H
#define LISTENUP_CAVAHI_H

#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/address.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-glib/glib-watch.h>

#define LISTENUP_AVAHI_FUNCTION(name) __typeof__(avahi_##name) *_Nonnull name

/// The Avahi functions the app calls, named without their `avahi_` prefix.
typedef struct {
    LISTENUP_AVAHI_FUNCTION(glib_poll_new);
    LISTENUP_AVAHI_FUNCTION(glib_poll_get);
    LISTENUP_AVAHI_FUNCTION(glib_poll_free);
    LISTENUP_AVAHI_FUNCTION(client_new);
    LISTENUP_AVAHI_FUNCTION(client_free);
    LISTENUP_AVAHI_FUNCTION(client_errno);
    LISTENUP_AVAHI_FUNCTION(strerror);
    LISTENUP_AVAHI_FUNCTION(free);
    LISTENUP_AVAHI_FUNCTION(service_browser_new);
    LISTENUP_AVAHI_FUNCTION(service_browser_free);
    LISTENUP_AVAHI_FUNCTION(service_resolver_new);
    LISTENUP_AVAHI_FUNCTION(service_resolver_free);
    LISTENUP_AVAHI_FUNCTION(address_snprint);
    LISTENUP_AVAHI_FUNCTION(string_list_add);
    LISTENUP_AVAHI_FUNCTION(string_list_free);
    LISTENUP_AVAHI_FUNCTION(string_list_get_next);
    LISTENUP_AVAHI_FUNCTION(string_list_get_size);
    LISTENUP_AVAHI_FUNCTION(string_list_get_text);
    LISTENUP_AVAHI_FUNCTION(entry_group_new);
    LISTENUP_AVAHI_FUNCTION(entry_group_free);
    LISTENUP_AVAHI_FUNCTION(entry_group_reset);
    LISTENUP_AVAHI_FUNCTION(entry_group_is_empty);
    LISTENUP_AVAHI_FUNCTION(entry_group_add_service_strlst);
    LISTENUP_AVAHI_FUNCTION(entry_group_commit);
    LISTENUP_AVAHI_FUNCTION(alternative_service_name);
} ListenUpAvahi;

#undef LISTENUP_AVAHI_FUNCTION

/// Opens libavahi-glib, libavahi-client and libavahi-common the first time
/// (thread-safe) and returns the table, or NULL with `*failure` set to why
/// (a static string: a library or a function missing).
const ListenUpAvahi *_Nullable listenup_avahi(const char *_Nullable *_Nonnull failure);

#endif
