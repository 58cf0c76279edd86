// Opens libqrencode on first use (include/CQREncode.h says why the app does
// not link it).
#include "CQREncode.h"

#include <dlfcn.h>
#include <pthread.h>

static ListenUpQREncode table;
static const char *failure_of_load;

static void load(void) {
    // The handle stays open for the life of the process.
    void *library = dlopen("libqrencode.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        failure_of_load = "libqrencode.so.4 could not be loaded (is libqrencode installed?)";
        return;
    }
    *(void **)(&table.encodeString) = dlsym(library, "QRcode_encodeString");
    *(void **)(&table.free) = dlsym(library, "QRcode_free");
    if (!table.encodeString || !table.free) failure_of_load = "libqrencode lacks QRcode_encodeString or QRcode_free";
}

const ListenUpQREncode *listenup_qrencode(const char **failure) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, load);
    *failure = failure_of_load;
    return failure_of_load ? NULL : &table;
}
