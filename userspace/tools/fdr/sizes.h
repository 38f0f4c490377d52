/* SPDX-License-Identifier: MIT */
/* sizes.h - "64K" and "10ms" on fdr's command lines. */
#ifndef FDR_SIZES_H
#define FDR_SIZES_H

#include <stdint.h>

/* Binary suffixes K, M, G; none: bytes (or a plain count).  0 or -EINVAL. */
int fdr__parse_size(const char *s, uint64_t *out);
/* N (microseconds), Nus, Nms, Ns, into microseconds.  0 or -EINVAL. */
int fdr__parse_duration_us(const char *s, uint64_t *out);

#endif
