/* SPDX-License-Identifier: MIT */
/* verify_sum: the checksums of verify= (the hot part of lib/verify.c: built for speed), written
 * from their public descriptions and from what fio 3.33 stores: crc32c (Castagnoli, reflected
 * 0x82f63b78; the SSE4.2 instruction when the CPU has it), fio's crc32 (polynomial 0x04c11db7,
 * MSB first, initial value 0, no final inversion), crc64, crc16, crc7, md5 (RFC 1321), sha1
 * (FIPS 180-4), sha3 (FIPS 202), xxhash (XXH32), and fio's sha256 and sha512 fields. */
#ifndef IOPS_VERIFY_SUM_H
#define IOPS_VERIFY_SUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True when the CPU has the crc32 instruction (SSE4.2). */
bool verify_sum_has_crc32c(void);
/* Standard CRC-32C ("123456789": 0xe3069283); hw: use the instruction. */
uint32_t verify_sum_crc32c(const void *p, size_t n, bool hw);
/* fio's crc32 ("123456789": 0x89a1897f). */
uint32_t verify_sum_crc32(const void *p, size_t n);
uint32_t verify_sum_xxh32(const void *p, size_t n, uint32_t seed);
void verify_sum_md5(const void *p, size_t n, uint8_t out[16]);
/* fio's crc64: polynomial 0xad93d23594c935a9 reflected, initial value 0, no final inversion. */
uint64_t verify_sum_crc64(const void *p, size_t n);
/* fio's crc16: polynomial 0x8005 reflected, initial value 0 ("123456789": 0xbb3d). */
uint16_t verify_sum_crc16(const void *p, size_t n);
/* fio's crc7: x^7 + x^3 + 1, MSB first, initial value 0 ("123456789": 0x75). */
uint8_t verify_sum_crc7(const void *p, size_t n);
/* SHA-1, its five state words stored little-endian (as fio keeps them). */
void verify_sum_sha1(const void *p, size_t n, uint8_t out[20]);
/* fio 3.33's 64-byte sha256 field: SHA-256's compression over the data padded with a
 * little-endian bit length; the field is that last padded block with its first 8 bytes
 * replaced by the low byte of each state word. */
void verify_sum_fio_sha256(const void *p, size_t n, uint8_t out[64]);
/* fio 3.33's 128-byte sha512 field: what its block buffer holds after the data went through
 * (no digest is ever computed): the first 128 bytes, their start overwritten by the last
 * n % 128. */
void verify_sum_fio_sha512(const void *p, size_t n, uint8_t out[128]);
/* SHA3 with a digest of 28, 32, 48 or 64 bytes. */
void verify_sum_sha3(const void *p, size_t n, unsigned digest, uint8_t *out);

#endif
