#include "LibSecretABIFacts.h"

#include <libsecret/secret.h>
#include <string.h>

long long listenup_secret_abi_fact(const char *name) {
#define FACT(expression) if (strcmp(name, #expression) == 0) return (long long)(expression);
    FACT(SECRET_SCHEMA_NONE) FACT(SECRET_SCHEMA_ATTRIBUTE_STRING)
    FACT(sizeof(SecretSchemaFlags)) FACT(sizeof(int))
#undef FACT
    return -1;
}
