/* gettext lives in glibc; this only makes its header visible to Swift. */
#include <libintl.h>
#include <locale.h>
