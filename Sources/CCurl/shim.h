#ifndef TL_CCURL_SHIM_H
#define TL_CCURL_SHIM_H
#include <curl/curl.h>

// curl_easy_setopt is variadic, which Swift cannot call: one typed wrapper per argument kind.
static inline CURLcode tl_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
// Same, for string and opaque pointer options (CURLOPT_URL, CURLOPT_WRITEDATA, ...).
static inline CURLcode tl_curl_setopt_ptr(CURL *h, CURLoption o, const void *v) { return curl_easy_setopt(h, o, v); }
// Same, for curl_off_t options (CURLOPT_POSTFIELDSIZE_LARGE).
static inline CURLcode tl_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
// Same, for header/body callback options: the callback type is a C function pointer.
typedef size_t (*tl_curl_write_cb)(char *, size_t, size_t, void *);
static inline CURLcode tl_curl_setopt_write_cb(CURL *h, CURLoption o, tl_curl_write_cb cb) { return curl_easy_setopt(h, o, cb); }
// Same, for CURLOPT_XFERINFOFUNCTION (abort an in-flight transfer).
typedef int (*tl_curl_xferinfo_cb)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
static inline CURLcode tl_curl_setopt_xferinfo_cb(CURL *h, CURLoption o, tl_curl_xferinfo_cb cb) { return curl_easy_setopt(h, o, cb); }
// curl_easy_getinfo is variadic: typed wrappers for long and pointer results.
static inline CURLcode tl_curl_getinfo_long(CURL *h, CURLINFO i, long *out) { return curl_easy_getinfo(h, i, out); }
static inline CURLcode tl_curl_getinfo_ptr(CURL *h, CURLINFO i, void *out) { return curl_easy_getinfo(h, i, out); }
// curl_multi_setopt is variadic too.
static inline CURLMcode tl_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }

#endif
