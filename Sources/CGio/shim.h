/* GIO's settings API, with the backend constructors (keyfile, memory) that
 * gio.h only declares when G_SETTINGS_ENABLE_BACKEND is defined. */
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gio.h>
#include <gio/gsettingsbackend.h>
