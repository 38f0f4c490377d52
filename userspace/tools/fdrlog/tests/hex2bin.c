// SPDX-License-Identifier: MIT
/*
 * hex2bin - turn a byte table (cases/NAME.hex) into a log: hex byte pairs,
 * '#' comments to end of line, "@zero N" for N zero bytes.
 * usage: hex2bin IN.hex OUT.log
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int emit_line(char *line, FILE *out, const char *path, int lineno)
{
	char *hash = strchr(line, '#');
	unsigned long n;

	if (hash)
		*hash = 0;
	if (sscanf(line, " @zero %lu", &n) == 1) {
		while (n--)
			fputc(0, out);
		return 0;
	}
	for (char *p = line; *p;) {
		unsigned v;

		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]) ||
		    sscanf(p, "%2x", &v) != 1) {
			fprintf(stderr, "hex2bin: %s:%d: expected a hex byte at '%.8s'\n",
				path, lineno, p);
			return -1;
		}
		fputc((int)v, out);
		p += 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char line[4096];
	FILE *in, *out;
	int lineno = 0, r = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: hex2bin IN.hex OUT.log\n");
		return 2;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	out = fopen(argv[2], "wb");
	if (!out) {
		perror(argv[2]);
		fclose(in);
		return 1;
	}
	while (!r && fgets(line, sizeof(line), in))
		r = emit_line(line, out, argv[1], ++lineno);
	fclose(in);
	if (fclose(out) || r) {
		remove(argv[2]);
		return 1;
	}
	return 0;
}
