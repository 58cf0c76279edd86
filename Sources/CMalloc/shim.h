/* glibc's allocator controls (malloc_trim); the functions are in glibc,
 * this only makes the header visible to Swift. */
#include <malloc.h>
