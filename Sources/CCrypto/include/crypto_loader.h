/* OpenSSL's libcrypto, for Sources/PhotoGridLoading/Buckets/Digest.swift only: SHA-256 and HMAC
   for AWS Signature Version 4, MD5 for comparing files with a bucket's ETags. It returns codes,
   no longjmp.

   It is loaded with dlopen the first time a digest is asked for, not linked: with libssl it cost
   every start of photogrid about 2 ms (an empty C program linked with both starts in 5.1 ms,
   without them in 3.2), for the few runs that talk to a bucket. The header comes from libssl-dev;
   the library loaded is the libcrypto of the OpenSSL this is compiled against (libcrypto.so.3). */
#ifndef PHOTOGRID_CRYPTO_LOADER_H
#define PHOTOGRID_CRYPTO_LOADER_H
#include <openssl/evp.h>
#include <openssl/hmac.h>

#define PG_CRYPTO_FUNCTIONS(X) \
    X(EVP_sha256) X(EVP_md5) X(EVP_Digest) X(HMAC) X(EVP_MD_CTX_new) X(EVP_MD_CTX_free) \
    X(EVP_DigestInit_ex) X(EVP_DigestUpdate) X(EVP_DigestFinal_ex)

#define PG_CRYPTO_FIELD(name) __typeof__(name) * _Nonnull name;
struct pg_crypto {
    PG_CRYPTO_FUNCTIONS(PG_CRYPTO_FIELD)
};
#undef PG_CRYPTO_FIELD

/* libcrypto's functions, loaded once (thread-safe); NULL when it cannot be loaded. */
const struct pg_crypto * _Nullable pg_crypto_load(void);
#endif
