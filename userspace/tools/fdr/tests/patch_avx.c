// SPDX-License-Identifier: MIT
/*
 * patch_avx.c - __m256 arguments and results through the hooks of
 * fdr record -P (patch_test.sh): a patched function of the program and
 * a library function called through the PLT (patch_avx_lib.c) take
 * three __m256 each and return one; a value the caller keeps in a
 * vector register across the calls must survive too.  Threads, so
 * that each one's first records take the recorder's general path
 * (which may run libc's AVX string functions).  Prints the number of
 * wrong results (0).  Built with -mavx, as its library: GCC passes
 * __m256 in ymm registers only then, and clang's target("avx") caller
 * and a -mavx library disagree.
 */
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define AVX __attribute__((target("avx")))
#ifdef __clang__
#define NOINLINE __attribute__((noinline))
#else	/* no own_fma.constprop.0 clone: the name the report counts */
#define NOINLINE __attribute__((noinline, noclone))
#endif
#define THREADS 4

AVX __m256 lib_fma(__m256 a, __m256 b, __m256 c);

AVX NOINLINE static __m256 own_fma(__m256 a, __m256 b, __m256 c)
{
	__asm__ volatile("");
	return _mm256_add_ps(_mm256_mul_ps(a, b), c);
}

static int rounds;

AVX static int same(__m256 x, __m256 y)
{
	return _mm256_movemask_ps(_mm256_cmp_ps(x, y, _CMP_EQ_OQ)) == 0xff;
}

AVX NOINLINE static long run(int seed)
{
	__m256 b = _mm256_set_ps(8, 7, 6, 5, 4, 3, 2, 1);
	__m256 c = _mm256_set_ps(-1, -2, -3, -4, -5, -6, -7, -8);
	long bad = 0;

	for (int i = 0; i < rounds; i++) {
		__m256 a = _mm256_set1_ps((float)(seed + i % 100));
		__m256 want = _mm256_add_ps(_mm256_mul_ps(a, b), c);
		__m256 r1 = own_fma(a, b, c);
		__m256 r2 = lib_fma(a, b, c);

		bad += !same(r1, want) + !same(r2, want);
		b = _mm256_add_ps(b, _mm256_set1_ps(0.0f));	/* kept live */
	}
	return bad;
}

static void *worker(void *arg)
{
	return (void *)run((int)(long)arg);
}

int main(int argc, char **argv)
{
	pthread_t t[THREADS];
	long bad = 0;

	rounds = argc > 1 ? atoi(argv[1]) : 1000;
	for (long i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < THREADS; i++) {
		void *r;

		pthread_join(t[i], &r);
		bad += (long)r;
	}
	bad += run(THREADS);
	printf("wrong results: %ld\n", bad);
	return bad != 0;
}
