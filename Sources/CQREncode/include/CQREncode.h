// libqrencode for Swift, opened on first use.
//
// The app does not link libqrencode: only pairing draws QR symbols, so a
// start-up need not load it (docs/performance.md, "Libraries opened when
// first used"). The library's own header gives the types;
// `listenup_qrencode()` opens it and returns a table of the two functions
// QRCode calls, each typed from the header's declaration.
#ifndef LISTENUP_CQRENCODE_H
#define LISTENUP_CQRENCODE_H

#include <qrencode.h>

/// The libqrencode functions the app calls.
typedef struct {
    __typeof__(QRcode_encodeString) *_Nonnull encodeString;
    __typeof__(QRcode_free) *_Nonnull free;
} ListenUpQREncode;

/// Opens libqrencode.so.4 the first time (thread-safe) and returns the
/// table, or NULL with `*failure` set to why (a static string).
const ListenUpQREncode *_Nullable listenup_qrencode(const char *_Nullable *_Nonnull failure);

#endif
