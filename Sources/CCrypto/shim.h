#ifndef FRAMEDUMP_CCRYPTO_SHIM_H
#define FRAMEDUMP_CCRYPTO_SHIM_H
/*
 * OpenSSL's libcrypto (Debian: libssl-dev): the ciphers (EVP_CIPHER) and HMAC (EVP_MAC) that
 * TLSDecryption uses. Only libcrypto is linked; nothing of libssl.
 */
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#endif
