/* OpenSSL's libcrypto, for Sources/PhotoGridLoading/Buckets/Digest.swift only: SHA-256 and
   HMAC for AWS Signature Version 4, MD5 for comparing files with a bucket's ETags. libcurl
   already links it, so a bucket adds no library at run time. It returns codes, no longjmp. */
#include <openssl/evp.h>
#include <openssl/hmac.h>
