/* verify_sum: the checksums of verify= (the hot part of lib/verify.c: built for speed), written
 * from their public descriptions: crc32c (Castagnoli, reflected 0x82f63b78; the SSE4.2
 * instruction when the CPU has it), fio's crc32 (polynomial 0x04c11db7, MSB first, initial value
 * 0, no final inversion), md5 (RFC 1321), sha256 (FIPS 180-4), xxhash (XXH32). */
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
void verify_sum_sha256(const void *p, size_t n, uint8_t out[32]);

#endif
