// SPDX-License-Identifier: MIT
/*
 * xray_options.c - find one flag in an XRAY_OPTIONS string.
 */
#include <string.h>

#include "flag_scan.h"
#include <linux/fdr.h>
#include "xray_options.h"

__FDR_NO_INSTRUMENT bool fdr__xray_options_get(const char *options, const char *name,
				   char *value, size_t size)
{
	size_t key_len = strlen(name);
	const char *pos = options, *end;
	struct flag_item it;
	bool found = false;

	if (!options || size == 0)
		return false;
	end = options + strlen(options);
	while (flag_next(&pos, end, &it)) {
		size_t n = it.value_len;

		if (!it.value || it.name_len != key_len ||
		    memcmp(it.name, name, key_len))
			continue;
		if (n >= size)
			n = size - 1;
		memcpy(value, it.value, n);
		value[n] = '\0';
		found = true;	/* keep going: the last one wins */
	}
	return found;
}

__FDR_NO_INSTRUMENT bool fdr__xray_option_is_true(const char *value)
{
	return !strcmp(value, "true") || !strcmp(value, "1") ||
	       !strcmp(value, "yes");
}
