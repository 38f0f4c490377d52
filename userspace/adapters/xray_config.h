/* SPDX-License-Identifier: MIT */
/*
 * xray_config.h - the config string of the "fdr" XRay mode.
 *
 * __xray_log_init_mode("fdr", CONFIG) hands CONFIG to log_init.  It is a
 * list of key=value separated by ':', ',' or white space, values quoted
 * when they hold one (flag_scan.h), like the flags of XRay's own modes:
 *   func_duration_threshold_us=N   rewind calls shorter than N µs
 *   target='SPEC'                  region to attach to (else $FDR_TARGET)
 * The xray-fdr keys that fdr sets elsewhere (buffer_size, buffer_max:
 * fixed by the region; grace_period_ms, no_file_flush: fdrd's business)
 * are accepted and ignored with a note, so a config written for xray-fdr
 * still works.
 */
#ifndef FDR_XRAY_CONFIG_H
#define FDR_XRAY_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define FDR_XRAY_TARGET_MAX	256

struct fdr_xray_config {
	bool has_threshold;
	unsigned long threshold_us;
	char target[FDR_XRAY_TARGET_MAX];	/* "" = default */
};

/*
 * Parse len bytes of text (no NUL needed).  On error returns -EINVAL and
 * writes a sentence naming the bad item into err (errlen bytes).
 */
int fdr__xray_config_parse(struct fdr_xray_config *cfg, const char *text,
			  size_t len, char *err, size_t errlen);

#endif /* FDR_XRAY_CONFIG_H */
