// SPDX-License-Identifier: MIT
/*
 * xray_options.c - find xray_mode in an XRAY_OPTIONS string.
 */
#include <string.h>

#include "flag_scan.h"
#include "hook_attrs.h"
#include "xray_options.h"

FDR_HOOK bool fdr_xray_options_mode(const char *options, char *mode,
				    size_t size)
{
	static const char key[] = "xray_mode";
	const char *pos = options, *end;
	struct flag_item it;
	bool found = false;

	if (!options || size == 0)
		return false;
	end = options + strlen(options);
	while (flag_next(&pos, end, &it)) {
		size_t n = it.value_len;

		if (!it.value || it.name_len != sizeof(key) - 1 ||
		    memcmp(it.name, key, it.name_len))
			continue;
		if (n >= size)
			n = size - 1;
		memcpy(mode, it.value, n);
		mode[n] = '\0';
		found = true;	/* keep going: the last one wins */
	}
	return found;
}
