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
 *   finalize	<ioctl|crash|trigger|none|unknown>	signal	<n>	<SIGNAME|->	pid	<pid>	comm	<comm>
 *   finalize	trigger	signal	0	-	pid	<pid>	comm	<comm>	tid	<tid>	fid	<fid>	duration_ns	<ns>
 *   buffers	<written>	dropped	<n>	cut	<n>	records	<n>
 *   mode	stream			(a stream's log only, then:)
 *   records_dropped	<n>		records the writers dropped, no buffer free
 *   buffers_recycled	<n>		(a flight recorder's log only, then
 *   records_dropped	<n>		 records_dropped too: its ring's counters)
 *   thread	<tid>	pid	<pid>	buffers	<n>	comm	<comm>	exe	<path>
 *
 * Values are escaped: backslash, tab and newline as \\ \t \n.  A process
 * that is gone at flush time has comm and exe "unknown".  A reader skips
 * fields it does not know after the ones it does (a trigger's tid, fid
 * and duration_ns come after comm; fid 0 and 0 ns: a trigger by hand).
 */
#ifndef FDRD_SIDE_TABLE_H
#define FDRD_SIDE_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "log_layout.h"

/*
 * Render the table for layout l whose log is log_name, reading process
 * facts under proc_root ("/proc", or a fake tree in tests).  Returns a
 * malloc'ed text and its length in *len, or NULL (out of memory).
 */
char *side_table_render(const struct log_layout *l, const char *log_name,
			const char *proc_root, size_t *len);

/* Write s as a field of the table (escaped as above). */
void side_table_escape(FILE *f, const char *s);

#endif /* FDRD_SIDE_TABLE_H */
