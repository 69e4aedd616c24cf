#ifndef FRAMEDUMP_CCRYPTO_SHIM_H
#define FRAMEDUMP_CCRYPTO_SHIM_H
/*
 * OpenSSL's libcrypto (Debian: libssl-dev): the types and constants of the ciphers
 * (EVP_CIPHER), HMAC (EVP_MAC) and digests that TLSDecryption uses. Nothing is linked: the
 * module map has no `link`, and TLSDecryption's LibCrypto loads libcrypto (never libssl) with
 * dlopen when first needed and calls it through function pointers of these signatures.
 */
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/opensslv.h>
#endif
