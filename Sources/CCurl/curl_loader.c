/* Loads libcurl on first use: see include/curl_loader.h for why it is not linked. */
#include "curl_loader.h"
#include <dlfcn.h>
#include <pthread.h>

#define PG_CURL_FUNCTIONS(X) \
    X(curl_global_init) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_strerror) X(curl_easy_setopt) \
    X(curl_easy_getinfo) X(curl_slist_append) X(curl_slist_free_all) X(curl_multi_init) X(curl_multi_cleanup) \
    X(curl_multi_setopt) X(curl_multi_add_handle) X(curl_multi_remove_handle) X(curl_multi_perform) \
    X(curl_multi_poll) X(curl_multi_wakeup) X(curl_multi_info_read)

#define PG_CURL_FIELD(name) __typeof__(name) *name;
static struct { PG_CURL_FUNCTIONS(PG_CURL_FIELD) } curl;
#undef PG_CURL_FIELD
static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define PG_CURL_LOAD(name) if ((curl.name = (__typeof__(name) *)dlsym(library, #name)) == NULL) return;
    PG_CURL_FUNCTIONS(PG_CURL_LOAD)
#undef PG_CURL_LOAD
    /* Not thread-safe in libcurl before 7.84: here, inside the once, it runs on one thread. */
    loaded = curl.curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
}

int pg_curl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

CURL *pg_curl_easy_init(void) { return curl.curl_easy_init(); }
void pg_curl_easy_cleanup(CURL *handle) { curl.curl_easy_cleanup(handle); }
const char *pg_curl_easy_strerror(CURLcode code) { return curl.curl_easy_strerror(code); }
struct curl_slist *pg_curl_slist_append(struct curl_slist *list, const char *text) { return curl.curl_slist_append(list, text); }
void pg_curl_slist_free_all(struct curl_slist *list) { curl.curl_slist_free_all(list); }

CURLcode pg_curl_set_long(CURL *handle, CURLoption option, long value) { return curl.curl_easy_setopt(handle, option, value); }
CURLcode pg_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) { return curl.curl_easy_setopt(handle, option, value); }
CURLcode pg_curl_set_string(CURL *handle, CURLoption option, const char *value) { return curl.curl_easy_setopt(handle, option, value); }
CURLcode pg_curl_set_pointer(CURL *handle, CURLoption option, void *value) { return curl.curl_easy_setopt(handle, option, value); }
CURLcode pg_curl_set_data_function(CURL *handle, CURLoption option, pg_curl_data_function function) {
    return curl.curl_easy_setopt(handle, option, function);
}
CURLcode pg_curl_set_host_key_function(CURL *handle, pg_curl_host_key_function function) {
    return curl.curl_easy_setopt(handle, CURLOPT_SSH_KEYFUNCTION, function);
}
CURLcode pg_curl_get_long(CURL *handle, CURLINFO info, long *value) { return curl.curl_easy_getinfo(handle, info, value); }
CURLcode pg_curl_get_string(CURL *handle, CURLINFO info, char **value) { return curl.curl_easy_getinfo(handle, info, value); }
CURLcode pg_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value) { return curl.curl_easy_getinfo(handle, info, value); }

CURLM *pg_curl_multi_init(void) { return curl.curl_multi_init(); }
CURLMcode pg_curl_multi_cleanup(CURLM *multi) { return curl.curl_multi_cleanup(multi); }
CURLMcode pg_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) { return curl.curl_multi_setopt(multi, option, value); }
CURLMcode pg_curl_multi_add_handle(CURLM *multi, CURL *handle) { return curl.curl_multi_add_handle(multi, handle); }
CURLMcode pg_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return curl.curl_multi_remove_handle(multi, handle); }
CURLMcode pg_curl_multi_perform(CURLM *multi, int *running) { return curl.curl_multi_perform(multi, running); }
CURLMcode pg_curl_multi_poll(CURLM *multi, int milliseconds, int *ready) {
    return curl.curl_multi_poll(multi, NULL, 0, milliseconds, ready);
}
CURLMcode pg_curl_multi_wakeup(CURLM *multi) { return curl.curl_multi_wakeup(multi); }
CURLMsg *pg_curl_multi_info_read(CURLM *multi, int *left) { return curl.curl_multi_info_read(multi, left); }
