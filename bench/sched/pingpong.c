// SPDX-License-Identifier: MIT
/*
 * pingpong.c - the cost of a context switch, untraced and traced: two
 * threads pinned on one CPU pass a byte back and forth through two
 * pipes, so every round trip is exactly two switches, each with a
 * wakeup from the other thread.  With --attach the process first maps
 * the /dev/fdr region writable, which makes the kernel record its
 * switches (Documentation/kmod.md, "Scheduling records").
 *
 * usage: pingpong [--attach] [--rounds N] [--cpu C]
 * Prints one line: "ns_per_switch <x> rounds <n> attached <0|1>".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/fdr.h>

struct pp {
	int ab[2], ba[2];
	long rounds;
	int cpu;
};

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("pingpong: sched_setaffinity");
		exit(1);
	}
}

static void *pong(void *arg)
{
	struct pp *p = arg;
	char c;

	pin(p->cpu);
	for (long i = 0; i < p->rounds; i++)
		if (read(p->ab[0], &c, 1) != 1 || write(p->ba[1], &c, 1) != 1)
			exit(1);
	return NULL;
}

/* Map the current region writable, as a libfdr writer does. */
static void attach(void)
{
	struct fdr_status st = { .size = sizeof(st) };
	int fd = open("/dev/fdr", O_RDWR | O_CLOEXEC);

	if (fd < 0 || ioctl(fd, FDR_IOC_STATUS, &st)) {
		fprintf(stderr, "pingpong: /dev/fdr: %s\n", strerror(errno));
		exit(1);
	}
	if (st.state != FDR_STATE_INITIALIZED ||
	    mmap(NULL, st.map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) ==
	    MAP_FAILED) {
		fprintf(stderr, "pingpong: no INITIALIZED region to map (%s)\n",
			strerror(errno));
		exit(1);
	}
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	struct pp p = { .rounds = 20000, .cpu = 0 };
	int attached = 0;
	pthread_t t;
	double t0, t1;
	char c = 'x';

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--attach"))
			attached = 1;
		else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			p.rounds = atol(argv[++i]);
		else if (!strcmp(argv[i], "--cpu") && i + 1 < argc)
			p.cpu = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: pingpong [--attach] [--rounds N] [--cpu C]\n");
			return 2;
		}
	}
	if (attached)
		attach();
	if (pipe(p.ab) || pipe(p.ba)) {
		perror("pingpong: pipe");
		return 1;
	}
	pin(p.cpu);
	if (pthread_create(&t, NULL, pong, &p))
		return 1;
	t0 = now_ns();
	for (long i = 0; i < p.rounds; i++)
		if (write(p.ab[1], &c, 1) != 1 || read(p.ba[0], &c, 1) != 1)
			return 1;
	t1 = now_ns();
	pthread_join(t, NULL);
	printf("ns_per_switch %.1f rounds %ld attached %d\n",
	       (t1 - t0) / (2.0 * p.rounds), p.rounds, attached);
	return 0;
}
