#ifndef LISTENUP_CADWAITA_SHIM_H
#define LISTENUP_CADWAITA_SHIM_H

#include <adwaita.h>
#include <glib-unix.h>

/* libdispatch's main-queue hooks (exported by libdispatch.so). GtkBridge's
 * MainContext uses them to drain the main queue from the GLib main loop. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *_Nullable msg);

#endif
