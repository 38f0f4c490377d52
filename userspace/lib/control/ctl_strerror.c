// SPDX-License-Identifier: MIT
/*
 * ctl_strerror.c - turn (operation, errno) into a sentence that names the
 * cause: which target, what state it is in, what to do about it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

static __thread char msg[1024];

FDR_API const char *fdr_state_name(uint32_t state)
{
	static const char *const names[] = {
		"UNINITIALIZED", "INITIALIZING", "INITIALIZED", "FINALIZING",
		"FINALIZED",
	};

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "UNKNOWN";
}

FDR_API const char *fdr_flush_state_name(uint32_t flush_state)
{
	static const char *const names[] = {
		"NOT_FLUSHING", "FLUSHING", "FLUSHED",
	};

	return flush_state < sizeof(names) / sizeof(names[0]) ?
		       names[flush_state] : "UNKNOWN";
}

/*
 * The group's name from /etc/group, else its number.  Read by hand: NSS
 * (getgrgid) does not work in the static binaries the VM runs.
 */
__FDR_NO_INSTRUMENT static void group_name(gid_t gid, char *out, size_t len)
{
	FILE *f = fopen("/etc/group", "re");
	char line[512];

	snprintf(out, len, "%u", (unsigned)gid);
	while (f && fgets(line, sizeof(line), f)) {
		char *name = strtok(line, ":");
		char *pw = name ? strtok(NULL, ":") : NULL;
		char *id = pw ? strtok(NULL, ":") : NULL;

		if (id && (gid_t)strtoul(id, NULL, 10) == gid) {
			snprintf(out, len, "%s", name);
			break;
		}
	}
	if (f)
		fclose(f);
}

/* "mode 0660, group fdr" of the node, to say what access is needed. */
__FDR_NO_INSTRUMENT static void describe_access(const char *path, char *out,
					size_t len)
{
	struct stat sb;
	char group[64];

	if (stat(path, &sb) < 0) {
		snprintf(out, len, "run as root");
		return;
	}
	group_name(sb.st_gid, group, sizeof(group));
	snprintf(out, len,
		 "it is mode %04o, group %s: run as root or as a member of group %s",
		 (unsigned)(sb.st_mode & 07777), group, group);
}

__FDR_NO_INSTRUMENT static void open_error(const struct fdr_ctl *ctl, int err,
				   const char *what)
{
	const struct fdr_target *t = &ctl->target;
	char access[320];
	bool emb = t->kind == FDR_TARGET_EMBEDDED;

	switch (err) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		if (emb)
			snprintf(msg, sizeof(msg),
				 "%s: no such region (%s does not exist; create it with 'fdrctl init --embedded %s')",
				 t->spec, t->path,
				 t->spec + strlen(FDR_EMBEDDED_PREFIX));
		else
			snprintf(msg, sizeof(msg),
				 "%s: no such device (is fdr.ko loaded? modprobe fdr)",
				 t->path);
		return;
	case EACCES:
	case EPERM:
		/* fdr__target_allowed(): a set-user-ID program's refusal */
		if (fdr__secure_exec() && ctl->detail[0]) {
			snprintf(msg, sizeof(msg), "%s: permission denied (%s)",
				 t->spec, ctl->detail);
			return;
		}
		describe_access(t->path, access, sizeof(access));
		snprintf(msg, sizeof(msg), "%s: permission denied (%s)", t->path,
			 access);
		return;
	case ENOTTY:
		snprintf(msg, sizeof(msg), "%s: not an fdr device (%s)", t->path,
			 ctl->detail[0] ? ctl->detail : "wrong ioctl answer");
		return;
	case EINVAL:
		if (emb) {
			snprintf(msg, sizeof(msg),
				 "%s: invalid region name (use letters, digits, '-', '_' and '.')",
				 t->spec);
			return;
		}
		if (strchr(t->spec, ':')) {
			snprintf(msg, sizeof(msg),
				 "%s: invalid session name (DEVICE:NAME or DEVICE:NAME@OWNER, OWNER a uid or user name, NAME 1 to 63 letters, digits, '.', '-' or '_', starting with a letter or digit)",
				 t->spec);
			return;
		}
		break;
	case EBADMSG:
		snprintf(msg, sizeof(msg), "%s: %s", t->spec,
			 ctl->detail[0] ? ctl->detail : "corrupt control area");
		return;
	case EPROTO:
		snprintf(msg, sizeof(msg),
			 "%s: ABI mismatch (the region is not fdr ABI version %d)",
			 t->spec, FDR_ABI_VERSION);
		return;
	case ENAMETOOLONG:
		snprintf(msg, sizeof(msg), "%s: target name too long", t->spec);
		return;
	}
	snprintf(msg, sizeof(msg), "%s: cannot %s: %s", t->spec, what,
		 strerror(err));
}

/* EBUSY: say which state made the transition illegal. */
__FDR_NO_INSTRUMENT static void state_error(const struct fdr_ctl *ctl, const char *op)
{
	struct fdr_status st;
	const char *hint = "";

	if (!ctl->ops || ctl->ops->status((struct fdr_ctl *)ctl, &st) < 0) {
		snprintf(msg, sizeof(msg), "%s: cannot %s: not allowed in the current state",
			 ctl->target.spec, op);
		return;
	}
	if (st.flush_state == FDR_FLUSH_FLUSHING && st.state == FDR_STATE_FINALIZED)
		hint = " and a flush is in progress (FLUSHING)";
	else if (st.flush_state == FDR_FLUSH_FLUSHING &&
		 st.state == FDR_STATE_INITIALIZED && !strcmp(op, "flush done"))
		hint = " and streaming (FLUSHING): the stream flush ends only after the finalize";
	else if (st.flush_state == FDR_FLUSH_FLUSHING &&
		 st.state == FDR_STATE_INITIALIZED)
		hint = " and streaming (a stream flush is in progress, FLUSHING)";
	else if (!strncmp(op, "flush", 5) && st.state == FDR_STATE_INITIALIZED &&
		 !(st.flags & FDR_CTL_STREAM))
		hint = " (a flight-recorder region flushes after the finalize; only a stream region, init --mode stream, flushes while INITIALIZED)";
	else if (!strcmp(op, "init") && st.state == FDR_STATE_INITIALIZED)
		hint = " (finalize and reset it first)";
	else if (!strcmp(op, "init") && st.state == FDR_STATE_FINALIZED)
		hint = " (reset it first)";
	else if (!strcmp(op, "reset") && st.state == FDR_STATE_INITIALIZED)
		hint = " (finalize it first)";
	else if (!strcmp(op, "trigger") && st.state == FDR_STATE_UNINITIALIZED)
		hint = " (a trigger finalizes an INITIALIZED recorder: run 'fdrctl init' first)";
	else if (!strcmp(op, "trigger") && st.state == FDR_STATE_FINALIZED)
		hint = st.finalize_reason == FDR_FINALIZE_TRIGGER ?
			       " (already finalized by a trigger; reset and init it to record again)" :
			       " (already finalized; reset and init it to record again)";
	else if (!strncmp(op, "flush", 5) && st.state == FDR_STATE_FINALIZED)
		hint = st.flush_state == FDR_FLUSH_FLUSHED ?
			       " and already FLUSHED" : " and not FLUSHING";
	snprintf(msg, sizeof(msg), "%s: cannot %s: the recorder is %s%s",
		 ctl->target.spec, op, fdr_state_name(st.state), hint);
}

/* EAGAIN of a trigger: the holdoff, and how long it is. */
__FDR_NO_INSTRUMENT static void holdoff_error(const struct fdr_ctl *ctl)
{
	struct fdr_status st;

	if (ctl->ops && ctl->ops->status((struct fdr_ctl *)ctl, &st) == 0)
		snprintf(msg, sizeof(msg),
			 "%s: cannot trigger: inside the trigger holdoff (at least %u ms between two triggers; wait, or trigger by hand, which is never held off)",
			 ctl->target.spec, st.trigger_holdoff_ms);
	else
		snprintf(msg, sizeof(msg),
			 "%s: cannot trigger: inside the trigger holdoff (wait, or trigger by hand)",
			 ctl->target.spec);
}

FDR_API const char *fdr_ctl_strerror(const struct fdr_ctl *ctl, const char *op,
				     int err)
{
	if (err < 0)
		err = -err;
	if (!op)
		op = "open";
	if (!ctl) {
		snprintf(msg, sizeof(msg), "cannot %s: %s", op, strerror(err));
		return msg;
	}
	if (fdr__session_strerror(ctl, op, err, msg, sizeof(msg)))
		return msg;
	if (!strcmp(op, "open") || !ctl->ops) {
		open_error(ctl, err, op);
		return msg;
	}
	switch (err) {
	case EBUSY:
		state_error(ctl, op);
		break;
	case ENOENT:
	case ENODEV:
	case EACCES:
	case EPERM:
	case EBADMSG:
	case EPROTO:
		open_error(ctl, err, op);
		break;
	case EINVAL:
		if (!strcmp(op, "init") && ctl->detail[0]) {
			snprintf(msg, sizeof(msg), "%s: cannot init: %s",
				 ctl->target.spec, ctl->detail);
			break;
		}
		if (!strcmp(op, "init") && ctl->target.kind == FDR_TARGET_DEVICE &&
		    ctl->init_flags & FDR_INIT_STREAM) {
			snprintf(msg, sizeof(msg),
				 "%s: cannot init: invalid argument: most likely this fdr.ko predates streaming mode (it refuses FDR_INIT_STREAM); load the fdr.ko of this build, or init with --mode flight (else the sizes: the buffer size must be a non-zero multiple of the page size, %zu bytes, at most 1G; buffers per CPU must be non-zero)",
				 ctl->target.spec, fdr__page_size());
			break;
		}
		if (!strcmp(op, "init")) {
			snprintf(msg, sizeof(msg),
				 "%s: cannot init: bad sizes (the buffer size must be a non-zero multiple of the page size, %zu bytes, at most 1G; buffers per CPU must be non-zero)",
				 ctl->target.spec, fdr__page_size());
			break;
		}
		snprintf(msg, sizeof(msg), "%s: cannot %s: invalid argument",
			 ctl->target.spec, op);
		break;
	case ENOSPC:
		/*
		 * "init": an fdr.ko before FDR_CTL_SCHED_REFUSED refused the
		 * INIT; "sched": a newer one made the region without the view
		 * (the flag in STATUS), which the tools report with this.
		 */
		if ((!strcmp(op, "init") || !strcmp(op, "sched")) &&
		    ctl->target.kind == FDR_TARGET_DEVICE) {
			snprintf(msg, sizeof(msg),
				 "%s: %sno scheduling view: fdr.ko records it for 16 regions at once, and for at most max_user_sched (/sys/module/fdr/parameters/max_user_sched) of one user's; none was free%s",
				 ctl->target.spec, strcmp(op, "init") ? "" : "cannot init: ",
				 strcmp(op, "init") ? "; recording without it (fdrctl list shows the sessions)" :
						      " (init with --no-sched)");
			break;
		}
		/* fall through */
	case ENOMEM:
		snprintf(msg, sizeof(msg),
			 "%s: cannot %s: not enough memory for the region%s%s (use a smaller --buffer-size or --buffers-per-cpu)",
			 ctl->target.spec, op, ctl->detail[0] ? ": " : "",
			 ctl->detail);
		break;
	case ENODATA:
		if (!strcmp(op, "map sched") && ctl->detail[0]) {
			snprintf(msg, sizeof(msg),
				 "%s: no scheduling area: %s", ctl->target.spec,
				 ctl->detail);
			break;
		}
		snprintf(msg, sizeof(msg),
			 "%s: cannot %s: the recorder is UNINITIALIZED (no region; run 'fdrctl init')",
			 ctl->target.spec, op);
		break;
	case ENOTTY:
		if (!strcmp(op, "trigger")) {
			snprintf(msg, sizeof(msg),
				 "%s: cannot trigger: this fdr.ko predates the latency trigger (no FDR_IOC_TRIGGER); load the fdr.ko of this build",
				 ctl->target.spec);
			break;
		}
		snprintf(msg, sizeof(msg), "%s: cannot %s: %s", ctl->target.spec,
			 op, strerror(err));
		break;
	case E2BIG:
		if (!strcmp(op, "init")) {
			snprintf(msg, sizeof(msg),
				 "%s: cannot init: this fdr.ko predates the latency trigger (it refuses a trigger in INIT); load the fdr.ko of this build, or init without a trigger",
				 ctl->target.spec);
			break;
		}
		snprintf(msg, sizeof(msg), "%s: cannot %s: %s", ctl->target.spec,
			 op, strerror(err));
		break;
	case EAGAIN:
		if (!strcmp(op, "trigger")) {
			holdoff_error(ctl);
			break;
		}
		snprintf(msg, sizeof(msg),
			 "%s: cannot %s: the region was re-initialized while it was being mapped, three times in a row; try again",
			 ctl->target.spec, op);
		break;
	case EFBIG:	/* an embedded region past ulimit -f (embedded_region.c) */
		snprintf(msg, sizeof(msg), "%s: cannot %s: %s", ctl->target.spec, op,
			 ctl->detail[0] ? ctl->detail : strerror(err));
		break;
	default:
		snprintf(msg, sizeof(msg), "%s: cannot %s: %s", ctl->target.spec,
			 op, strerror(err));
	}
	return msg;
}
