// SPDX-License-Identifier: MIT
/*
 * record_bench.c - the cost of libfdr's record path, side by side with
 * the floor it is measured against, in one run:
 *
 *  1. per event: fdr_enter/fdr_exit (threshold 0, so every event is
 *     written) vs a loop of rdtsc + one 8-byte store into a buffer of the
 *     same size; interleaved rounds, medians, ratio (target <= 1.3);
 *  2. scaling: events/s of 2 threads on 2 CPUs vs 1 thread (target
 *     >= 1.8), interleaved rounds, medians.
 *
 * Records into an embedded region (the record path is the same code as
 * for /dev/fdr).  Prints a Markdown table on stdout.
 * BENCH_RECORD_TRIGGER_MS=N arms a latency trigger of N ms (one that the
 * loops never fire): every record then takes the general path and the
 * shadow stack (libfdr.md, "The latency trigger").
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>
#include <fdr.h>
#include <fdr_inline.h>

#define BUFFER_SIZE	(64 * 1024)
#define FLOOR_WORDS	(BUFFER_SIZE * 16 / 8)	/* a ring's worth of bytes */

static uint64_t *floor_buf;
static volatile uint64_t sink;

__attribute__((noinline)) static void floor_loop(uint64_t n)
{
	uint64_t *p = floor_buf;

	for (uint64_t i = 0; i < n; i++) {
		p[i % FLOOR_WORDS] = __rdtsc();
		__asm__ volatile("" ::: "memory");	/* keep every store */
	}
}

/* Each thread its own floor buffer, of the size of one fdr CPU pool (the
 * memory an fdr thread cycles through); allocated by the untimed warm-up. */
__attribute__((noinline)) static void floor_loop_mt(uint64_t n)
{
	static __thread uint64_t *own;
	uint64_t *p;

	if (!own)
		own = calloc(FLOOR_WORDS, sizeof(uint64_t));
	p = own;
	for (uint64_t i = 0; i < n; i++) {
		p[i % FLOOR_WORDS] = __rdtsc();
		__asm__ volatile("" : : "r"(p) : "memory");
	}
}

__attribute__((noinline)) static void fdr_loop(uint64_t n)
{
	for (uint64_t i = 0; i < n; i += 2) {
		fdr_enter((int32_t)(i & 1023) + 1);
		fdr_exit((int32_t)(i & 1023) + 1);
	}
}

__attribute__((noinline)) static void fast_loop(uint64_t n)
{
	for (uint64_t i = 0; i < n; i += 2) {
		fdr_inline_enter((int32_t)(i & 1023) + 1);
		fdr_inline_exit((int32_t)(i & 1023) + 1);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct worker {
	void (*loop)(uint64_t);
	int cpu;
	uint64_t events;
	pthread_barrier_t *start;
	double t0, t1;
	double cpu_s;		/* thread CPU seconds of the timed part */
};

static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *run_worker(void *arg)
{
	struct worker *w = arg;

	pin(w->cpu);
	w->loop(2048);		/* take a buffer outside the timed part */
	pthread_barrier_wait(w->start);
	w->cpu_s = thread_cpu_s();
	w->t0 = now_s();
	w->loop(w->events);
	w->t1 = now_s();
	w->cpu_s = thread_cpu_s() - w->cpu_s;
	fdr_thread_release();
	return NULL;
}

/*
 * events/s of nthreads threads, each on its own CPU, from the common start
 * to the last end; *cpu_rate: the same per CPU-second of the slowest
 * thread, times nthreads - what they would do with the CPUs to themselves
 * (time other processes took from us is not our threads' CPU time).
 */
static double threads_rate(void (*loop)(uint64_t), int nthreads,
			   uint64_t events, double *cpu_rate)
{
	double cpu_max = 0;

	struct worker w[2];
	pthread_t th[2];
	pthread_barrier_t start;
	double t0 = 1e300, t1 = 0;

	pthread_barrier_init(&start, NULL, (unsigned)nthreads);
	for (int i = 0; i < nthreads; i++) {
		w[i] = (struct worker){ .loop = loop, .cpu = i, .events = events,
					.start = &start };
		pthread_create(&th[i], NULL, run_worker, &w[i]);
	}
	for (int i = 0; i < nthreads; i++) {
		pthread_join(th[i], NULL);
		t0 = w[i].t0 < t0 ? w[i].t0 : t0;
		t1 = w[i].t1 > t1 ? w[i].t1 : t1;
		cpu_max = w[i].cpu_s > cpu_max ? w[i].cpu_s : cpu_max;
	}
	*cpu_rate = (double)events * nthreads / cpu_max;
	pthread_barrier_destroy(&start);
	return (double)events * nthreads / (t1 - t0);
}

static int setup(const char *target)
{
	struct fdr_init cfg = { .size = sizeof(cfg), .buffer_size = BUFFER_SIZE,
				.buffers_per_cpu = 16 };
	const char *trig = getenv("BENCH_RECORD_TRIGGER_MS");
	struct fdr_ctl *ctl;
	int ret;

	if (trig && *trig)
		cfg.trigger_ns = strtoull(trig, NULL, 10) * 1000000ull;

	fdr_ctl_destroy_embedded(target);
	ret = fdr_ctl_open(&ctl, target);
	if (ret == 0)
		ret = fdr_ctl_init(ctl, &cfg);
	if (ret < 0)
		fprintf(stderr, "record_bench: %s\n", fdr_ctl_strerror(ctl, "init", ret));
	fdr_ctl_close(ctl);
	if (ret == 0) {
		setenv("FDR_OPTIONS", "func_duration_threshold_us=0", 1);
		ret = fdr_attach(target);
	}
	return ret;
}

/* The 1-minute load average: a busy machine shows in the scaling rows. */
static double loadavg(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double l = -1;

	if (f && fscanf(f, "%lf", &l) != 1)
		l = -1;
	if (f)
		fclose(f);
	return l;
}

static void report_counters(const char *target)
{
	struct fdr_status st;
	struct fdr_ctl *ctl;

	if (fdr_ctl_open(&ctl, target) == 0 && fdr_ctl_status(ctl, &st) == 0)
		printf("\nRegion counters after the run: %llu buffers acquired, "
		       "%llu recycled, %llu records dropped.\n",
		       (unsigned long long)st.buffers_acquired,
		       (unsigned long long)st.buffers_recycled,
		       (unsigned long long)st.records_dropped);
	fdr_ctl_close(ctl);
}

int main(int argc, char **argv)
{
	uint64_t events = argc > 1 ? strtoull(argv[1], NULL, 10) : 4000000;
	int rounds = argc > 2 ? atoi(argv[2]) : 11;
	double floor_ns[64], fdr_ns[64], fast_ns[64], one[64], two[64];
	double ratio[64], fast_ratio[64], fone[64], ftwo[64];
	double cone[64], ctwo[64], x;
	char target[64];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (rounds < 1 || rounds > 64 || events < 1000)
		return fprintf(stderr, "usage: record_bench [EVENTS [ROUNDS<=64]]\n"), 2;
	snprintf(target, sizeof(target), "embedded:bench-record-%d", getpid());
	floor_buf = calloc(FLOOR_WORDS, sizeof(uint64_t));
	if (!floor_buf || setup(target))
		return 1;
	double load0 = loadavg();

	pin(0);
	floor_loop(events / 10);	/* warm up both */
	fdr_loop(events / 10);
	for (int r = 0; r < rounds; r++) {
		double t = now_s();

		/* rotate which goes first */
		for (int k = 0; k < 3; k++) {
			switch ((k + r) % 3) {
			case 0:
				t = now_s();
				floor_loop(events);
				floor_ns[r] = (now_s() - t) * 1e9 / (double)events;
				break;
			case 1:
				t = now_s();
				fdr_loop(events);
				fdr_ns[r] = (now_s() - t) * 1e9 / (double)events;
				break;
			default:
				t = now_s();
				fast_loop(events);
				fast_ns[r] = (now_s() - t) * 1e9 / (double)events;
			}
		}
		ratio[r] = fdr_ns[r] / floor_ns[r];
		fast_ratio[r] = fast_ns[r] / floor_ns[r];
	}
	fdr_thread_release();
	/* Scaling, and the same for the floor loop: what this machine gives
	 * two threads at the time of the run (other load shows up there). */
	for (int r = 0; ncpu >= 2 && r < rounds; r++) {
		if (r % 2 == 0) {
			one[r] = threads_rate(fast_loop, 1, events, &cone[r]);
			two[r] = threads_rate(fast_loop, 2, events, &ctwo[r]);
			fone[r] = threads_rate(floor_loop_mt, 1, events, &x);
			ftwo[r] = threads_rate(floor_loop_mt, 2, events, &x);
		} else {
			ftwo[r] = threads_rate(floor_loop_mt, 2, events, &x);
			fone[r] = threads_rate(floor_loop_mt, 1, events, &x);
			two[r] = threads_rate(fast_loop, 2, events, &ctwo[r]);
			one[r] = threads_rate(fast_loop, 1, events, &cone[r]);
		}
	}
	printf("## bench/record: libfdr record path\n\n");
	printf("%llu events per measurement, %d interleaved rounds, medians; "
	       "embedded region of %d KiB buffers, threshold 0%s%s%s.\n\n",
	       (unsigned long long)events, rounds, BUFFER_SIZE / 1024,
	       getenv("BENCH_RECORD_TRIGGER_MS") ? "; latency trigger armed: " : "",
	       getenv("BENCH_RECORD_TRIGGER_MS") ? getenv("BENCH_RECORD_TRIGGER_MS") : "",
	       getenv("BENCH_RECORD_TRIGGER_MS") ? " ms" : "");
	printf("| measure | value | target |\n|---|---|---|\n");
	printf("| floor: rdtsc + 8-byte store | %.2f ns/event | |\n",
	       median(floor_ns, rounds));
	printf("| fdr_enter/fdr_exit (library call) | %.2f ns/event | |\n",
	       median(fdr_ns, rounds));
	printf("| fdr_inline_enter/fdr_inline_exit (fdr_inline.h) | %.2f ns/event | |\n",
	       median(fast_ns, rounds));
	printf("| ratio call / floor (median of per-round ratios) | %.3f | <= 1.3 |\n",
	       median(ratio, rounds));
	printf("| ratio inline / floor (median of per-round ratios) | %.3f | <= 1.3 |\n",
	       median(fast_ratio, rounds));
	if (ncpu >= 2) {
		double s[64], fs[64], cs[64];

		for (int r = 0; r < rounds; r++) {
			s[r] = two[r] / one[r];
			fs[r] = ftwo[r] / fone[r];
			cs[r] = ctwo[r] / cone[r];
		}
		printf("| fdr, 1 thread | %.1f M events/s | |\n", median(one, rounds) / 1e6);
		printf("| fdr, 2 threads on 2 CPUs | %.1f M events/s | |\n",
		       median(two, rounds) / 1e6);
		printf("| fdr scaling 2 threads / 1 (median of per-round ratios) | %.3f | >= 1.8 |\n",
		       median(s, rounds));
		printf("| floor scaling 2 threads / 1, same run (what the machine gave) | %.3f | |\n",
		       median(fs, rounds));
		printf("| fdr scaling in thread CPU time (events per CPU-second of the slowest thread, x threads) | %.3f | |\n",
		       median(cs, rounds));
	} else {
		printf("| scaling | skipped: one CPU | >= 1.8 |\n");
	}
	report_counters(target);
	printf("Load average (1 min) at start %.2f, at end %.2f, on %ld CPUs.\n",
	       load0, loadavg(), ncpu);
	fdr_detach();
	fdr_ctl_destroy_embedded(target);
	(void)sink;
	return 0;
}
