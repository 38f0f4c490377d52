// SPDX-License-Identifier: MIT
/* patch_avx_lib.c - patch_avx.c's library function, called through the PLT. */
#include <immintrin.h>

__attribute__((target("avx"))) __m256 lib_fma(__m256 a, __m256 b, __m256 c)
{
	return _mm256_add_ps(_mm256_mul_ps(a, b), c);
}
