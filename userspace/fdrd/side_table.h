/* SPDX-License-Identifier: MIT */
/*
 * side_table.h - the ".threads" file next to each log: which process,
 * command and executable every thread id of the log belongs to, and why
 * the region was finalized.  Text, one record per line, tab-separated
 * (Documentation/fdrd.md has the format):
 *
 *   fdrd-threads	1
 *   log	<log file name>
 *   generation	<n>
 *   finalize	<ioctl|crash|none>	signal	<n>	<SIGNAME|->	pid	<pid>	comm	<comm>
 *   buffers	<written>	dropped	<n>	cut	<n>	records	<n>
 *   thread	<tid>	pid	<pid>	buffers	<n>	comm	<comm>	exe	<path>
 *
 * Values are escaped: backslash, tab and newline as \\ \t \n.  A process
 * that is gone at flush time has comm and exe "unknown".
 */
#ifndef FDRD_SIDE_TABLE_H
#define FDRD_SIDE_TABLE_H

#include <stddef.h>

#include "log_layout.h"

/*
 * Render the table for layout l whose log is log_name, reading process
 * facts under proc_root ("/proc", or a fake tree in tests).  Returns a
 * malloc'ed text and its length in *len, or NULL (out of memory).
 */
char *side_table_render(const struct log_layout *l, const char *log_name,
			const char *proc_root, size_t *len);

#endif /* FDRD_SIDE_TABLE_H */
