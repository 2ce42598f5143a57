#ifndef TL_MALLOC_SHIM_H
#define TL_MALLOC_SHIM_H
#include <malloc.h>

// malloc.h (mallopt, M_ARENA_MAX) is not part of Swift's Glibc module.
static inline int tl_malloc_limit_arenas(int count) {
    return mallopt(M_ARENA_MAX, count);
}
#endif
