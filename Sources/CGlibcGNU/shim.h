#ifndef TL_GLIBC_GNU_SHIM_H
#define TL_GLIBC_GNU_SHIM_H
#include <pthread.h>
#include <string.h>

// glibc declares these only under _GNU_SOURCE, which Swift's Glibc module is built without.
extern int pthread_setname_np(pthread_t thread, const char *name);
extern int pthread_getname_np(pthread_t thread, char *name, size_t length);
extern int memfd_create(const char *name, unsigned int flags);

// Names the calling thread (what ps, top and perf show); the kernel keeps 15 bytes, so longer names are cut.
static inline int tl_name_this_thread(const char *name) {
    char kept[16];
    strncpy(kept, name, sizeof kept - 1);
    kept[sizeof kept - 1] = 0;
    return pthread_setname_np(pthread_self(), kept);
}

// The calling thread's name into `name` (at least 16 bytes).
static inline int tl_this_thread_name(char *name, size_t length) {
    return pthread_getname_np(pthread_self(), name, length);
}

// An anonymous file in memory, closed on exec (MFD_CLOEXEC); -1 with errno when the kernel has none.
static inline int tl_memory_file(const char *name) {
    return memfd_create(name, 1u /* MFD_CLOEXEC */);
}
#endif
