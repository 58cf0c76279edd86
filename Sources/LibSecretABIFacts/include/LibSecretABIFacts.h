// Values from libsecret's own headers, for the test that checks
// CLibSecret's declarations against them.
#ifndef LISTENUP_LIBSECRET_ABI_FACTS_H
#define LISTENUP_LIBSECRET_ABI_FACTS_H

/// The value of the named constant in the installed headers, or -1 for a
/// name it does not know.
long long listenup_secret_abi_fact(const char *name);

#endif
