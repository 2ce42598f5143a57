/* LD_PRELOAD shim for bench/write_parts_bench.py: counts the bytes `timeline` writes to the WAL and to the
 * database file, and (for lower bounds only) swaps SQL text the binary runs. Never used by the product.
 *
 *   TL_SHIM_STATS=FILE        at exit, append "wal_bytes=N db_bytes=N wal_writes=N" to FILE
 *   TL_SHIM_FRAMES=FILE       one line per WAL frame written: "PAGE COMMIT" (COMMIT: 1 on a transaction's
 *                             last frame), to tell which b-tree each written page belongs to
 *   TL_SHIM_SQL_LOG=FILE      every statement prepared, NUL-terminated (to find the exact text to swap)
 *   TL_SHIM_SUBST=FILE        pairs "FROM\0TO\0": a statement whose text equals FROM (prepared or
 *                             executed) runs TO instead
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdint.h>

#define MAX_FD 65536
enum { KIND_OTHER = 0, KIND_WAL = 1, KIND_DB = 2 };
static unsigned char fd_kind[MAX_FD];
static atomic_llong wal_bytes, db_bytes, wal_writes;

#define MAX_SUBST 64
static int subst_count = -1;
static char *subst_from[MAX_SUBST], *subst_to[MAX_SUBST];

static void load_subst(void) {
    if (subst_count >= 0) return;
    subst_count = 0;
    const char *path = getenv("TL_SHIM_SUBST");
    if (!path) return;
    FILE *f = fopen(path, "r");
    if (!f) return;
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    char *at = text, *end = text + n;
    while (at < end && subst_count < MAX_SUBST) {
        char *from = at;
        at += strlen(at) + 1;
        if (at >= end) break;
        subst_from[subst_count] = from;
        subst_to[subst_count] = at;
        at += strlen(at) + 1;
        subst_count++;
    }
}

static const char *substitute(const char *sql) {
    load_subst();
    for (int i = 0; i < subst_count; i++)
        if (strcmp(sql, subst_from[i]) == 0) return subst_to[i];
    return sql;
}

static int kind_of(const char *path) {
    size_t n = strlen(path);
    if (n > 4 && strcmp(path + n - 4, "-wal") == 0) return KIND_WAL;
    if (n > 3 && strcmp(path + n - 3, ".db") == 0) return KIND_DB;
    return KIND_OTHER;
}

static void remember(int fd, const char *path) {
    if (fd >= 0 && fd < MAX_FD) fd_kind[fd] = (unsigned char)kind_of(path);
}

int open(const char *path, int flags, ...) {
    static int (*real)(const char *, int, ...);
    if (!real) real = dlsym(RTLD_NEXT, "open");
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, int); va_end(ap); }
    int fd = real(path, flags, mode);
    remember(fd, path);
    return fd;
}

int open64(const char *path, int flags, ...) {
    static int (*real)(const char *, int, ...);
    if (!real) real = dlsym(RTLD_NEXT, "open64");
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, int); va_end(ap); }
    int fd = real(path, flags, mode);
    remember(fd, path);
    return fd;
}

int close(int fd) {
    static int (*real)(int);
    if (!real) real = dlsym(RTLD_NEXT, "close");
    if (fd >= 0 && fd < MAX_FD) fd_kind[fd] = KIND_OTHER;
    return real(fd);
}

static pthread_mutex_t frames_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *frames;
static int frames_opened;

/* A WAL frame begins with a 24-byte header, written on its own: page number, then the database size in
 * pages on a transaction's last frame (0 otherwise), big-endian. */
static void note_frame(const void *buf, size_t n) {
    if (n != 24) return;
    const unsigned char *b = buf;
    uint32_t page = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    uint32_t commit = (uint32_t)b[4] << 24 | (uint32_t)b[5] << 16 | (uint32_t)b[6] << 8 | b[7];
    pthread_mutex_lock(&frames_lock);
    if (!frames_opened) {
        frames_opened = 1;
        const char *path = getenv("TL_SHIM_FRAMES");
        if (path) frames = fopen(path, "w");
    }
    if (frames) fprintf(frames, "%u %d\n", page, commit != 0);
    pthread_mutex_unlock(&frames_lock);
}

static void count(int fd, ssize_t written) {
    if (written <= 0 || fd < 0 || fd >= MAX_FD) return;
    if (fd_kind[fd] == KIND_WAL) { atomic_fetch_add(&wal_bytes, written); atomic_fetch_add(&wal_writes, 1); }
    else if (fd_kind[fd] == KIND_DB) atomic_fetch_add(&db_bytes, written);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t offset) {
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real) real = dlsym(RTLD_NEXT, "pwrite64");
    ssize_t written = real(fd, buf, n, offset);
    count(fd, written);
    if (fd >= 0 && fd < MAX_FD && fd_kind[fd] == KIND_WAL) note_frame(buf, n);
    return written;
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t offset) {
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real) real = dlsym(RTLD_NEXT, "pwrite");
    ssize_t written = real(fd, buf, n, offset);
    count(fd, written);
    if (fd >= 0 && fd < MAX_FD && fd_kind[fd] == KIND_WAL) note_frame(buf, n);
    return written;
}

ssize_t write(int fd, const void *buf, size_t n) {
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) real = dlsym(RTLD_NEXT, "write");
    ssize_t written = real(fd, buf, n);
    count(fd, written);
    return written;
}

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;

int sqlite3_prepare_v3(sqlite3 *db, const char *sql, int n, unsigned int flags, sqlite3_stmt **stmt, const char **tail) {
    static int (*real)(sqlite3 *, const char *, int, unsigned int, sqlite3_stmt **, const char **);
    if (!real) real = dlsym(RTLD_NEXT, "sqlite3_prepare_v3");
    static FILE *log;
    static int log_opened;
    if (!log_opened) {
        log_opened = 1;
        const char *path = getenv("TL_SHIM_SQL_LOG");
        if (path) log = fopen(path, "w");
    }
    if (log) { fputs(sql, log); fputc(0, log); fflush(log); }
    const char *use = (n < 0) ? substitute(sql) : sql;
    return real(db, use, use == sql ? n : -1, flags, stmt, use == sql ? tail : NULL);
}

int sqlite3_exec(sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *arg, char **error) {
    static int (*real)(sqlite3 *, const char *, int (*)(void *, int, char **, char **), void *, char **);
    if (!real) real = dlsym(RTLD_NEXT, "sqlite3_exec");
    return real(db, substitute(sql), callback, arg, error);
}

__attribute__((destructor)) static void report(void) {
    if (frames) fclose(frames);
    frames = NULL;
    const char *path = getenv("TL_SHIM_STATS");
    if (!path) return;
    FILE *f = fopen(path, "a");
    if (!f) return;
    fprintf(f, "wal_bytes=%lld db_bytes=%lld wal_writes=%lld\n", (long long)wal_bytes, (long long)db_bytes,
            (long long)wal_writes);
    fclose(f);
}
