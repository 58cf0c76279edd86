// Thread names for `top -H` and the benches.
#define _GNU_SOURCE
#include <pthread.h>

#include "CGStreamer.h"

void listenup_name_current_thread(const char *name) {
    // The kernel keeps 15 bytes and the NUL; longer names are refused.
    pthread_setname_np(pthread_self(), name);
}
