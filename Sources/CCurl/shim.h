#ifndef TL_CCURL_SHIM_H
#define TL_CCURL_SHIM_H
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

// libcurl is opened at the first request (dlopen), not when the program starts: commands and views that
// never talk to SQS (`list`, `status`, `tui --no-poll`, ...) do not map it and the ~30 libraries it
// depends on (LDAP, Kerberos, GnuTLS, SSH, ...: about 4 MiB of resident memory). Every libcurl function
// used goes through this table; only CurlConnection.swift calls them (the table is per object file).
typedef struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} tl_curl_api;

// The state lives in function-local statics: Swift's importer emits those with the functions (it does
// not emit file-scope statics of a header).
static inline tl_curl_api *tl_curl_table(void) { static tl_curl_api api; return &api; }
static inline char *tl_curl_problem(void) { static char problem[512]; return problem; }
#define tl_curl (*tl_curl_table())

// OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT) through `library`'s dependencies (libcurl's libcrypto, or
// libcrypto itself). 0x00080000 is OPENSSL_INIT_NO_ATEXIT (OpenSSL 1.1.1 and later).
static inline void tl_openssl_without_atexit(void *library) {
    int (*init)(uint64_t, const void *) = (int (*)(uint64_t, const void *))dlsym(library, "OPENSSL_init_crypto");
    if (init) init(0x00080000L, NULL);
}

static inline void tl_curl_load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(tl_curl_problem(), 512, "cannot load libcurl.so.4 (%s): install libcurl4",
                 why ? why : "not found");
        return;
    }
    void **slots[] = {
        (void **)&tl_curl.global_init, (void **)&tl_curl.easy_init, (void **)&tl_curl.easy_cleanup,
        (void **)&tl_curl.easy_reset, (void **)&tl_curl.easy_strerror, (void **)&tl_curl.easy_setopt,
        (void **)&tl_curl.easy_getinfo, (void **)&tl_curl.multi_init, (void **)&tl_curl.multi_cleanup,
        (void **)&tl_curl.multi_add_handle, (void **)&tl_curl.multi_remove_handle,
        (void **)&tl_curl.multi_perform, (void **)&tl_curl.multi_poll, (void **)&tl_curl.multi_wakeup,
        (void **)&tl_curl.multi_info_read, (void **)&tl_curl.slist_append, (void **)&tl_curl.slist_free_all,
    };
    const char *names[] = {
        "curl_global_init", "curl_easy_init", "curl_easy_cleanup", "curl_easy_reset", "curl_easy_strerror",
        "curl_easy_setopt", "curl_easy_getinfo", "curl_multi_init", "curl_multi_cleanup",
        "curl_multi_add_handle", "curl_multi_remove_handle", "curl_multi_perform", "curl_multi_poll",
        "curl_multi_wakeup", "curl_multi_info_read", "curl_slist_append", "curl_slist_free_all",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        *slots[i] = dlsym(library, names[i]);
        if (!*slots[i]) {
            snprintf(tl_curl_problem(), 512,
                     "libcurl.so.4 has no %s (libcurl 7.68 or newer is needed)", names[i]);
            return;
        }
    }
    // OpenSSL must not free its state at exit while another thread may still be in a transfer: its atexit
    // cleanup would pull the state from under it (a crash after the program's last line). Asked before
    // curl_global_init, which would otherwise initialise OpenSSL with the cleanup registered.
    tl_openssl_without_atexit(library);
    if (tl_curl.global_init(CURL_GLOBAL_ALL) != CURLE_OK) {
        snprintf(tl_curl_problem(), 512, "curl_global_init failed");
    }
}

// Opens libcurl and runs curl_global_init, once per process (thread-safe). NULL when ready; otherwise
// why not, and no other function here may be called.
static inline const char *tl_curl_open(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, tl_curl_load);
    return tl_curl_problem()[0] ? tl_curl_problem() : NULL;
}

static inline CURL *tl_curl_easy_init(void) { return tl_curl.easy_init(); }
static inline void tl_curl_easy_cleanup(CURL *h) { tl_curl.easy_cleanup(h); }
static inline void tl_curl_easy_reset(CURL *h) { tl_curl.easy_reset(h); }
static inline const char *tl_curl_easy_strerror(CURLcode c) { return tl_curl.easy_strerror(c); }
static inline CURLM *tl_curl_multi_init(void) { return tl_curl.multi_init(); }
static inline CURLMcode tl_curl_multi_cleanup(CURLM *m) { return tl_curl.multi_cleanup(m); }
static inline CURLMcode tl_curl_multi_add_handle(CURLM *m, CURL *h) { return tl_curl.multi_add_handle(m, h); }
static inline CURLMcode tl_curl_multi_remove_handle(CURLM *m, CURL *h) { return tl_curl.multi_remove_handle(m, h); }
static inline CURLMcode tl_curl_multi_perform(CURLM *m, int *running) { return tl_curl.multi_perform(m, running); }
static inline CURLMcode tl_curl_multi_poll(CURLM *m, int timeout_ms) { return tl_curl.multi_poll(m, NULL, 0, timeout_ms, NULL); }
static inline CURLMcode tl_curl_multi_wakeup(CURLM *m) { return tl_curl.multi_wakeup(m); }
static inline CURLMsg *tl_curl_multi_info_read(CURLM *m, int *left) { return tl_curl.multi_info_read(m, left); }
static inline struct curl_slist *tl_curl_slist_append(struct curl_slist *l, const char *s) { return tl_curl.slist_append(l, s); }
static inline void tl_curl_slist_free_all(struct curl_slist *l) { tl_curl.slist_free_all(l); }

// curl_easy_setopt is variadic, which Swift cannot call: one typed wrapper per argument kind.
static inline CURLcode tl_curl_setopt_long(CURL *h, CURLoption o, long v) { return tl_curl.easy_setopt(h, o, v); }
// Same, for string and opaque pointer options (CURLOPT_URL, CURLOPT_WRITEDATA, ...).
static inline CURLcode tl_curl_setopt_ptr(CURL *h, CURLoption o, const void *v) { return tl_curl.easy_setopt(h, o, v); }
// Same, for curl_off_t options (CURLOPT_POSTFIELDSIZE_LARGE).
static inline CURLcode tl_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return tl_curl.easy_setopt(h, o, v); }
// Same, for header/body callback options: the callback type is a C function pointer.
typedef size_t (*tl_curl_write_cb)(char *, size_t, size_t, void *);
static inline CURLcode tl_curl_setopt_write_cb(CURL *h, CURLoption o, tl_curl_write_cb cb) { return tl_curl.easy_setopt(h, o, cb); }
// Same, for CURLOPT_PREREQFUNCTION (libcurl 7.80+): called with the connected address before a request
// is sent; returning CURL_PREREQFUNC_ABORT sends nothing.
typedef int (*tl_curl_prereq_cb)(void *, char *, char *, int, int);
static inline CURLcode tl_curl_setopt_prereq_cb(CURL *h, tl_curl_prereq_cb cb) { return tl_curl.easy_setopt(h, CURLOPT_PREREQFUNCTION, cb); }
// CURL_PREREQFUNC_OK / _ABORT are macros without a type Swift can import: as ints.
static inline int tl_curl_prereq_ok(void) { return CURL_PREREQFUNC_OK; }
static inline int tl_curl_prereq_abort(void) { return CURL_PREREQFUNC_ABORT; }
// curl_easy_getinfo is variadic: a typed wrapper for long results.
static inline CURLcode tl_curl_getinfo_long(CURL *h, CURLINFO i, long *out) { return tl_curl.easy_getinfo(h, i, out); }

#endif
