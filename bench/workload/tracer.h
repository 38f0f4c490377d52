/* SPDX-License-Identifier: MIT */
/*
 * tracer.h - what each peer in bench/peers/<name>/ provides to the harness.
 *
 * The harness calls tracer_setup() once before any timed call and
 * tracer_teardown() once after the last one, so session set-up, mode
 * initialisation, finalize and flush are never inside a timed region.
 */
#ifndef BENCH_TRACER_H
#define BENCH_TRACER_H

/* Returns 0, or -1 after printing why on stderr. */
int tracer_setup(void);
int tracer_teardown(void);

#endif /* BENCH_TRACER_H */
