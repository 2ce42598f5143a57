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
// curl_easy_getinfo is variadic: a typed wrapper for long results.
static inline CURLcode tl_curl_getinfo_long(CURL *h, CURLINFO i, long *out) { return curl_easy_getinfo(h, i, out); }

#endif
