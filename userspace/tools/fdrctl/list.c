// SPDX-License-Identifier: MIT
/* list.c - 'fdrctl list [--json]': the named sessions the caller may see. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "fdrctl.h"

static const char list_usage[] =
	"usage: fdrctl [--target DEVICE] list [--json]\n\n"
	"List the named sessions of the device you may attach to: yours, those\n"
	"whose group you are in, and all of them for root.  For each: its name,\n"
	"owner uid, your role (owner or writer), state, and the memory of its\n"
	"regions.  The default session (plain /dev/fdr) is not listed.  --json\n"
	"prints one JSON object per line.\n";

static const char *role_name(uint32_t role)
{
	return role == FDR_ROLE_WRITER ? "writer" : "owner";
}

static void print_one(const struct fdr_session_info *s, int json)
{
	if (json) {
		/* Session names are [A-Za-z0-9._-]: nothing to escape. */
		char gid[16] = "null";

		if (s->flags & FDR_SESSION_GROUP)
			snprintf(gid, sizeof(gid), "%u", s->gid);
		printf("{\"name\":\"%s\",\"owner_uid\":%u,\"gid\":%s,\"role\":\"%s\",\"state\":\"%s\",\"live_bytes\":%llu}\n",
		       s->name, s->owner_uid, gid, role_name(s->role),
		       fdr_state_name(s->state),
		       (unsigned long long)s->live_bytes);
		return;
	}
	printf("%-24s %10u %-7s %-14s %12llu", s->name, s->owner_uid,
	       role_name(s->role), fdr_state_name(s->state),
	       (unsigned long long)s->live_bytes);
	if (s->flags & FDR_SESSION_GROUP)
		printf("  group %u", s->gid);
	putchar('\n');
}

static int parse(int argc, char **argv, int *json)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			*json = 1;
			continue;
		}
		fprintf(stderr, "fdrctl: unexpected argument '%s'\n%s", argv[i],
			list_usage);
		return EXIT_USAGE;
	}
	return 0;
}

int cmd_list(struct fdrctl_opts *o, int argc, char **argv)
{
	struct fdr_session_info s;
	struct fdr_ctl *ctl;
	int json = 0, ret;
	uint32_t i;

	if (fdrctl_wants_help(argc, argv)) {
		fputs(list_usage, stdout);
		return EXIT_OK;
	}
	ret = parse(argc, argv, &json);
	if (ret || (ret = fdrctl_open(o, &ctl)))
		return ret;
	for (i = 0; (ret = fdr_ctl_session_info(ctl, i, &s)) == 0; i++) {
		if (i == 0 && !json)
			printf("%-24s %10s %-7s %-14s %12s\n", "NAME", "OWNER",
			       "ROLE", "STATE", "BYTES");
		print_one(&s, json);
	}
	if (ret != -ENOENT) {
		ret = fdrctl_fail(ctl, "list sessions", ret);
		fdr_ctl_close(ctl);
		return ret;
	}
	if (i == 0 && !json)
		printf("no sessions\n");
	fdr_ctl_close(ctl);
	return EXIT_OK;
}
