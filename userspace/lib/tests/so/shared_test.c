// SPDX-License-Identifier: MIT
/*
 * shared_test.c - the same library as libfdr.so: a program linked with
 * -lfdr records through both the exported calls and the inline calls of
 * <fdr_inline.h> (which reach libfdr.so's TLS), and the bytes arrive.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/fdr_log.h>
#include "tap.h"
#include "region_util.h"
#include <fdr_inline.h>

static bool test_shared(void)
{
	struct test_region tr;
	struct rec recs[16];
	char err[128];
	uint32_t idx[4];
	int n;

	setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);
	CHECK(tr_create(&tr, "so", 65536, 2) == 0, "create");
	CHECK(fdr_attach(tr.target) == 0 && tr_map(&tr) == 0, "attach");
	fdr_enter(1);
	fdr_inline_enter(2);
	fdr_inline_exit(2);
	fdr_exit(1);
	CHECK(tr_buffers_by_seq(&tr, idx, 4) == 1, "one buffer");
	n = parse_buffer(tr_buffer(&tr, idx[0]), tr_desc(&tr, idx[0])->extents,
			 recs, 16, err, sizeof(err));
	CHECK(n == 7 && recs[3].fid == 1 && recs[4].fid == 2 &&
	      recs[5].fid == 2 && recs[6].fid == 1 &&
	      recs[6].fn_kind == FDR_FN_EXIT, "records: n %d %s", n, err);
	fdr_detach();
	tr_destroy(&tr);
	return true;
}

int main(void)
{
	tap_plan(1);
	tap_ok(test_shared(), "libfdr.so: exported and inline calls record");
	return tap_done();
}
