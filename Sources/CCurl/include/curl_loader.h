/* libcurl, for Sources/PhotoGridLoading/Transfer/Curl.swift only: remote galleries over HTTP/1.1,
   HTTP/2, TLS and SFTP (through libssh2), with netrc.

   It is loaded with dlopen when the first transfer starts, not linked: libcurl brings 26 more
   libraries with it (GnuTLS through librtmp, Kerberos, LDAP, libssh2, nghttp2...), whose loading
   and constructors cost every start of photogrid about 6 ms, remote or not. An empty C program
   starts in 1.0 ms, the same linked with -lcurl in 7.2 ms (docs/decisions.md). The header comes
   from libcurl4-openssl-dev; the library loaded is its soname, libcurl.so.4.

   The functions below are libcurl's of the same name without the pg_, called through the loaded
   library; they may be called only once pg_curl_load has returned 1. curl_easy_setopt,
   curl_easy_getinfo and curl_multi_setopt take variadic arguments, which Swift cannot pass: one
   function per argument type. The option bits are macros Swift does not import (shifts and
   casts): constants here. */
#ifndef PHOTOGRID_CURL_LOADER_H
#define PHOTOGRID_CURL_LOADER_H
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

/* Loads libcurl and runs its global set-up, once (thread-safe): 1 when both went well. */
int pg_curl_load(void);

CURL * _Nullable pg_curl_easy_init(void);
void pg_curl_easy_cleanup(CURL * _Nonnull handle);
const char * _Nonnull pg_curl_easy_strerror(CURLcode code);
struct curl_slist * _Nullable pg_curl_slist_append(struct curl_slist * _Nullable list, const char * _Nonnull text);
void pg_curl_slist_free_all(struct curl_slist * _Nullable list);

CURLcode pg_curl_set_long(CURL * _Nonnull handle, CURLoption option, long value);
CURLcode pg_curl_set_offset(CURL * _Nonnull handle, CURLoption option, curl_off_t value);
CURLcode pg_curl_set_string(CURL * _Nonnull handle, CURLoption option, const char * _Nullable value);
CURLcode pg_curl_set_pointer(CURL * _Nonnull handle, CURLoption option, void * _Nullable value);
typedef size_t (*pg_curl_data_function)(char * _Nullable data, size_t size, size_t count, void * _Nullable context);
CURLcode pg_curl_set_data_function(CURL * _Nonnull handle, CURLoption option, pg_curl_data_function _Nonnull function);
typedef int (*pg_curl_host_key_function)(CURL * _Nullable handle, const struct curl_khkey * _Nullable known,
                                          const struct curl_khkey * _Nullable found, enum curl_khmatch match,
                                          void * _Nullable context);
CURLcode pg_curl_set_host_key_function(CURL * _Nonnull handle, pg_curl_host_key_function _Nonnull function);
CURLcode pg_curl_get_long(CURL * _Nonnull handle, CURLINFO info, long * _Nonnull value);
CURLcode pg_curl_get_string(CURL * _Nonnull handle, CURLINFO info, char * _Nullable * _Nonnull value);
CURLcode pg_curl_get_offset(CURL * _Nonnull handle, CURLINFO info, curl_off_t * _Nonnull value);

CURLM * _Nullable pg_curl_multi_init(void);
CURLMcode pg_curl_multi_cleanup(CURLM * _Nonnull multi);
CURLMcode pg_curl_multi_set_long(CURLM * _Nonnull multi, CURLMoption option, long value);
CURLMcode pg_curl_multi_add_handle(CURLM * _Nonnull multi, CURL * _Nonnull handle);
CURLMcode pg_curl_multi_remove_handle(CURLM * _Nonnull multi, CURL * _Nonnull handle);
CURLMcode pg_curl_multi_perform(CURLM * _Nonnull multi, int * _Nonnull running);
CURLMcode pg_curl_multi_poll(CURLM * _Nonnull multi, int milliseconds, int * _Nonnull ready);
CURLMcode pg_curl_multi_wakeup(CURLM * _Nonnull multi);
CURLMsg * _Nullable pg_curl_multi_info_read(CURLM * _Nonnull multi, int * _Nonnull left);

static const long pg_curl_auth_basic = (long)CURLAUTH_BASIC;
static const long pg_curl_auth_digest = (long)CURLAUTH_DIGEST;
static const long pg_curl_ssh_publickey = CURLSSH_AUTH_PUBLICKEY;
static const long pg_curl_ssh_password = CURLSSH_AUTH_PASSWORD;
static const long pg_curl_ssh_agent = CURLSSH_AUTH_AGENT;
static const long pg_curl_pipe_multiplex = CURLPIPE_MULTIPLEX;
#endif
