// SPDX-License-Identifier: MIT
/*
 * host_facts.c - the machine a recording ran on, for DIR/info and `fdr
 * info` (uftrace info's "system information"): host name, kernel, CPU
 * model and count, distribution.  A fact that cannot be read is "-": the
 * recording never fails for want of one.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "record.h"

/* The value of the first line of path starting with key, cut at '\n'. */
static void read_field(const char *path, const char *key, const char *sep,
		       char *out, size_t n)
{
	char line[512];
	FILE *f = fopen(path, "re");

	snprintf(out, n, "-");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, key, strlen(key)) || !(v = strstr(line, sep)))
			continue;
		v += strlen(sep);
		v += strspn(v, " \t\"");
		v[strcspn(v, "\"\n")] = 0;
		snprintf(out, n, "%s", *v ? v : "-");
		break;
	}
	fclose(f);
}

void fdr__host_facts(struct host_facts *h)
{
	struct utsname u;

	if (gethostname(h->hostname, sizeof(h->hostname)))
		snprintf(h->hostname, sizeof(h->hostname), "-");
	h->hostname[sizeof(h->hostname) - 1] = 0;
	if (uname(&u))
		snprintf(h->kernel, sizeof(h->kernel), "-");
	else
		snprintf(h->kernel, sizeof(h->kernel), "%s %s %s %s", u.sysname, u.release,
			 u.version, u.machine);
	read_field("/proc/cpuinfo", "model name", ":", h->cpu, sizeof(h->cpu));
	h->ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	read_field("/etc/os-release", "PRETTY_NAME", "=", h->distro, sizeof(h->distro));
}
