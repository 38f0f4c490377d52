// SPDX-License-Identifier: MIT
/*
 * patch_prog.c - the program patch_test.sh records with fdr record -P,
 * built without fdr-cc (plain clang -O2) and, as the oracle, with fdr-cc
 * (XRay): recursion, tail calls, calls through pointers, a switch, static
 * functions, threads, a longjmp out of patched frames, a signal handler;
 * its output is a checksum of all of it.
 *
 * The asm functions are the patcher's own cases, which XRay cannot see:
 * their first instructions need moving (a short jcc, a call, a
 * RIP-relative load) or make the function unsafe (a loop back to the
 * entry; fewer bytes than the jmp).  The program calls each a known
 * number of times: ASM_CALLS below, which the test checks.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

/* rel_jcc(x): 7 if x else 9; its je rel8 is among the moved bytes */
int rel_jcc(int x);
/* rel_call(): rel_helper() + 1, its first instruction the call */
int rel_call(void);
int rel_helper(void);
/* rel_rip(): rel_value, read RIP-relative by its first instruction */
int rel_rip(void);
/* spin(n): loops back to its own entry: refused (jump into the patch) */
int spin(int n);
/* tiny(): 3 bytes, spin right behind it (no padding): refused (too short) */
int tiny(void);
int rel_value = 5;

__asm__(".text\n"
	".globl rel_jcc\n.type rel_jcc,@function\nrel_jcc:\n"
	"	test %edi, %edi\n	je 1f\n	mov $7, %eax\n	ret\n1:	mov $9, %eax\n	ret\n"
	".size rel_jcc, .-rel_jcc\n"
	".globl rel_call\n.type rel_call,@function\nrel_call:\n"
	"	call rel_helper\n	add $1, %eax\n	ret\n"
	".size rel_call, .-rel_call\n"
	".globl rel_helper\n.type rel_helper,@function\nrel_helper:\n"
	"	mov $41, %eax\n	ret\n"
	".size rel_helper, .-rel_helper\n"
	".globl rel_rip\n.type rel_rip,@function\nrel_rip:\n"
	"	mov rel_value(%rip), %eax\n	ret\n"
	".size rel_rip, .-rel_rip\n"
	".globl tiny\n.type tiny,@function\ntiny:\n"
	"	xor %eax, %eax\n	ret\n"
	".size tiny, .-tiny\n"
	".globl spin\n.type spin,@function\nspin:\n"
	"	dec %edi\n	jnz spin\n	xor %eax, %eax\n	ret\n"
	".size spin, .-spin\n");

NOINLINE static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

NOINLINE int leaf(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 3 + 1;
}

/* tail-calls leaf (a jmp at -O2): the shadow stack's tail-call case */
NOINLINE int tail(int x)
{
	__asm__ volatile("" ::: "memory");
	return leaf(x + 1);
}

NOINLINE static int op_add(int a, int b) { __asm__ volatile(""); return a + b; }
NOINLINE static int op_mul(int a, int b) { __asm__ volatile(""); return a * b; }
NOINLINE static int op_sub(int a, int b) { __asm__ volatile(""); return a - b; }
NOINLINE static int op_xor(int a, int b) { __asm__ volatile(""); return a ^ b; }

/* a dense switch: a jump table (refused if the table is in this function) */
NOINLINE int dispatch(int k, int a, int b)
{
	switch (k) {
	case 0: return op_add(a, b);
	case 1: return op_mul(a, b);
	case 2: return op_sub(a, b);
	case 3: return op_xor(a, b);
	case 4: return op_add(b, a) + 1;
	case 5: return op_mul(b, a) - 1;
	default: return 0;
	}
}

static int (*const ops[])(int, int) = { op_add, op_mul, op_sub, op_xor };

NOINLINE int through_pointers(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += ops[i % 4](i, s & 15);
	return s;
}

static jmp_buf jb;

NOINLINE static void deep(int d)
{
	__asm__ volatile("" ::: "memory");
	if (d == 0)
		longjmp(jb, 1);
	deep(d - 1);
	__asm__ volatile("" ::: "memory");
}

NOINLINE int jumper(void)
{
	if (setjmp(jb) == 0) {
		deep(4);
		return -1;
	}
	return leaf(2);
}

static volatile sig_atomic_t handled;

NOINLINE static void on_signal(int sig)
{
	handled += leaf(sig) > 0;
}

NOINLINE static void *worker(void *arg)
{
	long id = (long)arg, s = 0;

	for (int i = 0; i < 2000; i++)
		s += tail(i) + dispatch(i % 7, i, (int)id) + fib(3);
	return (void *)s;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4;
	long sum = 0;
	pthread_t t[16];

	if (threads < 0 || threads > 16)
		return 2;
	signal(SIGUSR1, on_signal);
	raise(SIGUSR1);
	for (long i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < threads; i++) {
		void *r;

		pthread_join(t[i], &r);
		sum += (long)r;
	}
	sum += fib(18) + through_pointers(1000) + jumper() + handled;
	/* ASM_CALLS: rel_jcc 3, rel_call 2, rel_helper 2, rel_rip 4, spin 1, tiny 2 */
	sum += rel_jcc(0) + rel_jcc(1) + rel_jcc(2) + rel_call() + rel_call();
	sum += rel_rip() + rel_rip() + rel_rip() + rel_rip() + spin(10) + tiny() + tiny();
	printf("%d threads: %ld\n", threads, sum);
	return 0;
}
