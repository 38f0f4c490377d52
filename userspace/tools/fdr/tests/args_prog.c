// SPDX-License-Identifier: MIT
/*
 * args_prog.c - functions whose arguments and return values fdr record
 * -A/-R logs (args_test.sh); each prints them itself, in the form fdr
 * replay shows them, so the test compares the two.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

__attribute__((noinline)) int int_add(int a, int b)
{
	printf("int_add(%d, %d) = %d\n", a, b, a + b);
	return a + b;
}

__attribute__((noinline)) uint64_t u64_max(uint64_t x)
{
	printf("u64_max(%" PRIu64 ") = %" PRIu64 "\n", x, x);
	return x;
}

/* Quotes, a newline, a tab and UTF-8 bytes: fdr escapes as uftrace
 * does, "\"" "\n" "\t" and "\xc3" per byte outside ASCII. */
__attribute__((noinline)) size_t str_len(const char *s, int k)
{
	size_t n = 0;

	while (s[n])
		n++;
	printf("str_len(\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p == '\n')
			printf("\\n");
		else if (*p == '\t')
			printf("\\t");
		else if (*p < 0x20 || *p >= 0x7f)
			printf("\\x%02x", *p);
		else
			putchar(*p);
	}
	printf("\", %d) = %zu\n", k, n);
	return n + (size_t)k - (size_t)k;
}

__attribute__((noinline)) double half(double x, long n)
{
	printf("half(%g, %ld) = %g\n", x, n, x / 2);
	return x / 2;
}

__attribute__((noinline)) char next_char(char c)
{
	printf("next_char('%c') = '%c'\n", c, c + 1);
	return (char)(c + 1);
}

/* Not printed: the test checks the bound (64 bytes) and NULL. */
__attribute__((noinline)) int first_byte(const char *s)
{
	return s ? s[0] : -1;
}

__attribute__((noinline)) int plain(int x)
{
	return x * 3;
}

/* Calls whose result is unused could go: the compiler sees they only read. */
volatile int sink;
static const char long_text[] =
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdefTAIL";

int main(int argc, char **argv)
{
	volatile int zero = argc - 1;
	int r = plain(1 + zero);

	(void)argv;
	r += int_add(-1, 2 + zero);
	u64_max(UINT64_MAX - (uint64_t)zero);
	str_len("say \"hi\"\n\tcaf\xc3\xa9", 3 + zero);
	half(-2.5 + zero, -7);
	next_char('A' + (char)zero);
	sink = first_byte(&long_text[zero]);
	sink = first_byte(zero ? "" : NULL);
	return r == 4 ? 0 : 1;
}
