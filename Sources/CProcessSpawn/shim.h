#ifndef TL_PROCESS_SPAWN_SHIM_H
#define TL_PROCESS_SPAWN_SHIM_H
#include <spawn.h>
#include <fcntl.h>

// glibc declares these only under _GNU_SOURCE, which Swift's Glibc module is built without.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
extern int pipe2(int fds[2], int flags);
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);

// Closes every descriptor >= `from` in the child, atomically at spawn (no fd leaks into helpers).
static inline int tl_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

// A pipe whose both ends are close-on-exec from birth (pipe() + fcntl would race other spawns).
static inline int tl_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
// The child starts in `path` (glibc 2.29).
static inline int tl_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

// POSIX_SPAWN_SETSID (glibc 2.26): declared only under _GNU_SOURCE as well.
static inline int tl_spawn_setsid_flag(void) {
#ifdef POSIX_SPAWN_SETSID
    return POSIX_SPAWN_SETSID;
#else
    return 0x80;
#endif
}
#endif
