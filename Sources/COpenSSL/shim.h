#ifndef TL_COPENSSL_SHIM_H
#define TL_COPENSSL_SHIM_H
#include <dlfcn.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <pthread.h>
#include <stdio.h>

// libcrypto is opened at the first digest (dlopen), not when the program starts: commands and views
// that never sign a request (`list`, `status`, `tui --no-poll`, ...) do not map it (1.4 MiB of resident
// memory). Only Digest.swift calls these; the state lives in function-local statics (Swift's importer
// emits those with the functions, not a header's file-scope statics).
typedef struct {
    int (*digest)(const void *, size_t, unsigned char *, unsigned int *, const EVP_MD *, ENGINE *);
    const EVP_MD *(*sha256)(void);
    const EVP_MD *(*sha1)(void);
    unsigned char *(*hmac)(const EVP_MD *, const void *, int, const unsigned char *, size_t, unsigned char *,
                           unsigned int *);
} tl_crypto_api;

static inline tl_crypto_api *tl_crypto_table(void) { static tl_crypto_api api; return &api; }
static inline char *tl_crypto_problem(void) { static char problem[512]; return problem; }

static inline void tl_crypto_load(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(tl_crypto_problem(), 512, "cannot load libcrypto.so.3 (%s): install libssl3", why ? why : "not found");
        return;
    }
    // No cleanup at exit: a thread may still be signing while the program ends (see CCurl's shim).
    int (*init)(uint64_t, const void *) = (int (*)(uint64_t, const void *))dlsym(library, "OPENSSL_init_crypto");
    if (init) init(OPENSSL_INIT_NO_ATEXIT, NULL);
    tl_crypto_api *api = tl_crypto_table();
    api->digest = (int (*)(const void *, size_t, unsigned char *, unsigned int *, const EVP_MD *, ENGINE *))dlsym(library, "EVP_Digest");
    api->sha256 = (const EVP_MD *(*)(void))dlsym(library, "EVP_sha256");
    api->sha1 = (const EVP_MD *(*)(void))dlsym(library, "EVP_sha1");
    api->hmac = (unsigned char *(*)(const EVP_MD *, const void *, int, const unsigned char *, size_t, unsigned char *,
                                    unsigned int *))dlsym(library, "HMAC");
    if (!api->digest || !api->sha256 || !api->sha1 || !api->hmac) {
        snprintf(tl_crypto_problem(), 512, "libcrypto.so.3 lacks EVP_Digest, EVP_sha256, EVP_sha1 or HMAC");
    }
}

// Opens libcrypto once per process (thread-safe). NULL when ready; otherwise why not, and no other
// function here may be called.
static inline const char *tl_crypto_open(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, tl_crypto_load);
    return tl_crypto_problem()[0] ? tl_crypto_problem() : NULL;
}

// `sha1` selects SHA-1 instead of SHA-256. Returns 1 on success.
static inline int tl_digest(const void *data, size_t count, unsigned char *out, unsigned int *length, int sha1) {
    tl_crypto_api *api = tl_crypto_table();
    return api->digest(data, count, out, length, sha1 ? api->sha1() : api->sha256(), NULL);
}

static inline unsigned char *tl_hmac_sha256(const void *key, int keyLength, const unsigned char *data, size_t count,
                                            unsigned char *out, unsigned int *length) {
    tl_crypto_api *api = tl_crypto_table();
    return api->hmac(api->sha256(), key, keyLength, data, count, out, length);
}

#endif
