// SPDX-License-Identifier: MIT
/*
 * exec_parent.c - runs another program (exec_test.sh): "exec PATH" from
 * main, "thread PATH" from a second thread, "env0 PATH" with execve() and
 * an empty environment, "spawn PATH" with posix_spawn() and envp = {NULL}.
 * Prints how often it called its own function.
 */
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *target[2];
static char *no_env[] = { NULL };

__attribute__((noinline)) int parent_work(int x)
{
	return x + 1;
}

static void *exec_from_thread(void *arg)
{
	(void)arg;
	execv(target[0], target);
	return NULL;
}

static int run(const char *how)
{
	pthread_t t;
	pid_t pid;
	int st;

	if (!strcmp(how, "exec"))
		execv(target[0], target);
	else if (!strcmp(how, "env0"))
		execve(target[0], target, no_env);
	else if (!strcmp(how, "thread") && !pthread_create(&t, NULL, exec_from_thread, NULL))
		pthread_join(t, NULL);
	else if (!strcmp(how, "spawn") && !posix_spawn(&pid, target[0], NULL, NULL, target, no_env))
		return waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	perror(target[0]);
	return 1;
}

int main(int argc, char **argv)
{
	int n = 0;

	if (argc != 3)
		return 2;
	target[0] = argv[2];
	for (int i = 0; i < 3; i++)
		n = parent_work(n);
	printf("parent_work %d\n", n);
	fflush(stdout);
	return run(argv[1]);
}
