/* SPDX-License-Identifier: MIT */
/*
 * fdr_bytes.h - read the little-endian fields of XRay FDR records.
 *
 * Records sit at any byte offset in a log or buffer, so a field is read
 * with memcpy (one load on x86-64 and arm64, no alignment fault); the
 * value is the host's order, and every host fdr runs on is little-endian
 * like the format.  One copy for libfdrread, fdrd and the test walkers.
 */
#ifndef FDR_BYTES_H
#define FDR_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint16_t fdr__get_u16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t fdr__get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline int32_t fdr__get_s32(const uint8_t *p)
{
	return (int32_t)fdr__get_u32(p);
}

static inline uint64_t fdr__get_u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#endif /* FDR_BYTES_H */
