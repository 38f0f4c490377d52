// SPDX-License-Identifier: MIT
/*
 * libcall_fork_iterate.c - fork() while another thread is inside
 * dl_iterate_phdr() (libcall_test.sh).  glibc 2.36 leaves the loader's
 * dl_load_write_lock held in the child then, so a child's fork handler
 * that asks the loader anything waits forever: fdr's, which names the
 * hooked functions in the child's sym-map, must not.  The thread waits
 * inside its callback until the child has exited; the child itself only
 * prints and exits.  Prints "child: 0" (its exit status) or "child:
 * hung" after 20 s.  Its functions but main are not instrumented: the
 * --gcc hooks name a function at its first call through the loader,
 * which the waiting thread holds.
 */
#define _GNU_SOURCE
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __clang__
#define UNTRACED	__attribute__((no_instrument_function, xray_never_instrument))
#else
#define UNTRACED	__attribute__((no_instrument_function))
#endif

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int inside, done;

UNTRACED static int hold(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)info, (void)size, (void)arg;
	pthread_mutex_lock(&m);
	inside = 1;
	pthread_cond_broadcast(&cv);
	while (!done)
		pthread_cond_wait(&cv, &m);
	pthread_mutex_unlock(&m);
	return 1;	/* one object is enough */
}

UNTRACED static void *iterate(void *arg)
{
	(void)arg;
	dl_iterate_phdr(hold, NULL);
	return NULL;
}

UNTRACED static int wait_child(pid_t p)
{
	int st;

	for (int i = 0; i < 2000; i++) {	/* 20 s */
		if (waitpid(p, &st, WNOHANG) == p)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		usleep(10000);
	}
	kill(p, SIGKILL);
	waitpid(p, &st, 0);
	return -1;
}

int main(void)
{
	pthread_t t;
	pid_t p;
	int r;

	if (pthread_create(&t, NULL, iterate, NULL))
		return 1;
	pthread_mutex_lock(&m);
	while (!inside)
		pthread_cond_wait(&cv, &m);
	pthread_mutex_unlock(&m);
	p = fork();
	if (p == 0) {
		printf("in the child\n");
		fflush(stdout);
		_exit(0);
	}
	r = p < 0 ? -2 : wait_child(p);
	pthread_mutex_lock(&m);
	done = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&m);
	pthread_join(t, NULL);
	if (r == -1)
		printf("child: hung\n");
	else
		printf("child: %d\n", r);
	return r == 0 ? 0 : 1;
}
