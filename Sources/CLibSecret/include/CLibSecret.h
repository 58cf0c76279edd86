// libsecret for Swift, opened on first use.
//
// The app does not link libsecret: that would load it, and libgcrypt with
// it, at every start-up, though a first launch never touches the keyring
// (docs/performance.md, "Libraries opened when first used").
// `listenup_secret()` opens it and returns a table of the five functions
// Keyring calls. Their declarations are written here because libsecret's
// headers need an include path of their own: they are libsecret-1's stable
// "simple" password API (secret-password.h, secret-schema.h), and
// KeyringTests compares the two constants below with the installed headers
// (LibSecretABIFacts).
#ifndef LISTENUP_CLIBSECRET_H
#define LISTENUP_CLIBSECRET_H

#include <gio/gio.h>

/// A SecretSchema (secret-schema.h); the app only hands it back to libsecret.
typedef struct ListenUpSecretSchema ListenUpSecretSchema;

/// SecretSchemaFlags' SECRET_SCHEMA_NONE and
/// SecretSchemaAttributeType's SECRET_SCHEMA_ATTRIBUTE_STRING.
enum { LISTENUP_SECRET_SCHEMA_NONE = 0, LISTENUP_SECRET_SCHEMA_ATTRIBUTE_STRING = 0 };

/// The libsecret functions the app calls, named without `secret_`.
typedef struct {
    ListenUpSecretSchema *_Nullable (*_Nonnull schema_newv)(const gchar *_Nonnull name, int flags,
                                                             GHashTable *_Nullable attribute_names_and_types);
    gboolean (*_Nonnull password_storev_sync)(const ListenUpSecretSchema *_Nullable schema, GHashTable *_Nullable attributes,
                                              const gchar *_Nullable collection, const gchar *_Nonnull label,
                                              const gchar *_Nonnull password, GCancellable *_Nullable cancellable,
                                              GError *_Nullable *_Nullable error);
    gchar *_Nullable (*_Nonnull password_lookupv_sync)(const ListenUpSecretSchema *_Nullable schema, GHashTable *_Nullable attributes,
                                                       GCancellable *_Nullable cancellable, GError *_Nullable *_Nullable error);
    void (*_Nonnull password_free)(gchar *_Nullable password);
    gboolean (*_Nonnull password_clearv_sync)(const ListenUpSecretSchema *_Nullable schema, GHashTable *_Nullable attributes,
                                              GCancellable *_Nullable cancellable, GError *_Nullable *_Nullable error);
} ListenUpSecret;

/// Opens libsecret-1.so.0 the first time (thread-safe) and returns the
/// table, or NULL with `*failure` set to why (a static string).
const ListenUpSecret *_Nullable listenup_secret(const char *_Nullable *_Nonnull failure);

#endif
