/* libcurl for the remote galleries' transfers (Sources/PhotoGridLoading/Transfer/Curl.swift, the one
   Swift file that calls it). curl_easy_setopt and curl_easy_getinfo take variadic arguments, which
   Swift cannot pass: one wrapper per argument type. The option bits are macros Swift does not
   import (shifts and casts): constants here. */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

static inline CURLcode pg_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode pg_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode pg_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode pg_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*pg_curl_data_function)(char *data, size_t size, size_t count, void *context);
static inline CURLcode pg_curl_set_data_function(CURL *handle, CURLoption option, pg_curl_data_function function) {
    return curl_easy_setopt(handle, option, function);
}
typedef int (*pg_curl_progress_function)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
static inline CURLcode pg_curl_set_progress_function(CURL *handle, pg_curl_progress_function function) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}
typedef int (*pg_curl_host_key_function)(CURL *handle, const struct curl_khkey *known, const struct curl_khkey *found,
                                          enum curl_khmatch match, void *context);
static inline CURLcode pg_curl_set_host_key_function(CURL *handle, pg_curl_host_key_function function) {
    return curl_easy_setopt(handle, CURLOPT_SSH_KEYFUNCTION, function);
}
static inline CURLcode pg_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode pg_curl_get_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode pg_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLMcode pg_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

static const long pg_curl_auth_basic = (long)CURLAUTH_BASIC;
static const long pg_curl_auth_digest = (long)CURLAUTH_DIGEST;
static const long pg_curl_ssh_publickey = CURLSSH_AUTH_PUBLICKEY;
static const long pg_curl_ssh_password = CURLSSH_AUTH_PASSWORD;
static const long pg_curl_ssh_agent = CURLSSH_AUTH_AGENT;
static const long pg_curl_global_default = CURL_GLOBAL_DEFAULT;
static const long pg_curl_pipe_multiplex = CURLPIPE_MULTIPLEX;
static const CURLversion pg_curl_version_now = CURLVERSION_NOW;
