// SPDX-License-Identifier: MIT
/*
 * xray_config.c - parse the "fdr" mode's config string (see xray_config.h).
 *
 * Runs from log_init, i.e. under XRay's mode mutex and before any trace
 * hook is installed: it may print, but must not call __xray_log_*.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flag_scan.h"
#include <linux/fdr.h>
#include "xray_config.h"

/* Keys of compiler-rt's xray-fdr mode that mean nothing here. */
static const char *const ignored_keys[] = {
	"buffer_size", "buffer_max", "grace_period_ms", "no_file_flush",
};

__FDR_NO_INSTRUMENT static int key_is(const char *key, size_t klen, const char *name)
{
	return strlen(name) == klen && memcmp(key, name, klen) == 0;
}

__FDR_NO_INSTRUMENT static int parse_threshold(struct fdr_xray_config *cfg,
				    const char *val, size_t vlen,
				    char *err, size_t errlen)
{
	char buf[32];
	char *end;

	if (vlen == 0 || vlen >= sizeof(buf))
		goto bad;
	memcpy(buf, val, vlen);
	buf[vlen] = '\0';
	if (buf[0] < '0' || buf[0] > '9')
		goto bad;
	errno = 0;
	cfg->threshold_us = strtoul(buf, &end, 10);
	if (errno || *end)
		goto bad;
	cfg->has_threshold = true;
	return 0;
bad:
	snprintf(err, errlen,
		 "func_duration_threshold_us='%.*s' is not a number of microseconds",
		 (int)(vlen > 40 ? 40 : vlen), val);
	return -EINVAL;
}

__FDR_NO_INSTRUMENT static int parse_item(struct fdr_xray_config *cfg,
			       const struct flag_item *it, char *err,
			       size_t errlen)
{
	const char *item = it->name, *val = it->value;
	size_t klen = it->name_len, vlen = it->value_len;

	if (!val) {
		snprintf(err, errlen, "'%.*s' is not of the form key=value",
			 (int)(klen > 60 ? 60 : klen), item);
		return -EINVAL;
	}
	if (key_is(item, klen, "func_duration_threshold_us"))
		return parse_threshold(cfg, val, vlen, err, errlen);
	if (key_is(item, klen, "target")) {
		if (vlen == 0 || vlen >= sizeof(cfg->target)) {
			snprintf(err, errlen, "target= must name a region (1 to %zu bytes)",
				 sizeof(cfg->target) - 1);
			return -EINVAL;
		}
		memcpy(cfg->target, val, vlen);
		cfg->target[vlen] = '\0';
		return 0;
	}
	for (size_t i = 0; i < sizeof(ignored_keys) / sizeof(ignored_keys[0]); i++) {
		if (key_is(item, klen, ignored_keys[i])) {
			fprintf(stderr, "fdr xray mode: note: %s is ignored: the region "
				"(fdrctl init) fixes buffers and fdrd flushes\n",
				ignored_keys[i]);
			return 0;
		}
	}
	snprintf(err, errlen,
		 "unknown key '%.*s' (known: func_duration_threshold_us, target)",
		 (int)(klen > 60 ? 60 : klen), item);
	return -EINVAL;
}

__FDR_NO_INSTRUMENT int fdr__xray_config_parse(struct fdr_xray_config *cfg,
				   const char *text, size_t len,
				   char *err, size_t errlen)
{
	const char *pos = text, *end = text ? text + len : NULL;
	struct flag_item it;

	memset(cfg, 0, sizeof(*cfg));
	while (text && flag_next(&pos, end, &it)) {
		int ret = parse_item(cfg, &it, err, errlen);

		if (ret)
			return ret;
	}
	return 0;
}
