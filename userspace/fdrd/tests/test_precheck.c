// SPDX-License-Identifier: MIT
/*
 * test_precheck.c - walks done during the grace period are reused only
 * for buffers that cannot have changed since (RELEASED, same generation,
 * seq and extents); everything else is walked again at flush time.
 */
#include <string.h>

#include "log_layout.h"
#include "log_precheck.h"
#include "synth_region.h"
#include "tap.h"

int main(void)
{
	struct synth_region r;
	struct log_precheck pc;
	struct log_layout l, fresh;
	const char *why;
	uint8_t rec[16];
	size_t reused;

	synth_region_create(&r, 5, 4096, 0, 1);
	for (uint32_t i = 0; i < 5; i++)
		synth_fill(&r, i, i, 10 + (int32_t)i, 10, 0, 1, 1, 5);
	synth_desc(&r, 1)->state = FDR_BUF_HELD;	/* a writer still holds it */
	tap_ok(log_precheck_build(r.ro, r.len, NULL, &pc) == 0, "precheck built");
	tap_ok(pc.entries[0].valid && !pc.entries[1].valid,
	       "RELEASED buffers walked, HELD ones left for the flush");

	/* after the grace period: buffer 2 grew by a bad record, 3 was retaken */
	synth_metadata(rec, 12);
	synth_append(&r, 2, rec, 16);
	synth_desc(&r, 3)->seq = 9;
	synth_desc(&r, 1)->state = FDR_BUF_RELEASED;

	log_layout_select(r.ro, r.len, NULL, &l, &why);
	reused = log_precheck_apply(&l, &pc);
	tap_ok(reused == 2, "only the two unchanged buffers reuse their walk (%zu)", reused);
	log_layout_finish(&l);
	log_layout_build(r.ro, r.len, NULL, &fresh, &why);
	tap_ok(l.nr_buffers == fresh.nr_buffers && l.records == fresh.records &&
	       l.nr_problems == 1 && fresh.nr_problems == 1 &&
	       l.problems[0].index == 2 && l.file_size == fresh.file_size,
	       "the result equals a walk of everything at flush time (%zu buffers, %llu records)",
	       l.nr_buffers, (unsigned long long)l.records);
	int same = l.nr_buffers == fresh.nr_buffers;
	for (size_t i = 0; same && i < l.nr_buffers; i++)
		same = l.buffers[i].len == fresh.buffers[i].len &&
		       l.buffers[i].file_offset == fresh.buffers[i].file_offset;
	tap_ok(same, "same lengths and offsets buffer by buffer");
	log_layout_free(&l);
	log_layout_free(&fresh);

	/* a new generation invalidates everything */
	r.ctl->generation++;
	for (uint32_t i = 0; i < 5; i++)
		synth_desc(&r, i)->generation = r.ctl->generation;
	log_layout_select(r.ro, r.len, NULL, &l, &why);
	tap_ok(log_precheck_apply(&l, &pc) == 0, "walks of an older generation are not reused");
	log_layout_free(&l);
	log_precheck_free(&pc);
	synth_region_destroy(&r);
	return tap_done();
}
