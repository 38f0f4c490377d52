// SPDX-License-Identifier: MIT
/*
 * owner_note.c - who wrote a buffer, at its end (uapi/linux/fdr.h, "Owner
 * note").  fdrd names the threads of a log from it: by flush time the
 * writers have often exited and /proc has nothing left to say.
 *
 * The executable is read once per process (at attach, and again in a
 * forked child, which has the same one), the command once per thread (at
 * its first buffer, with the gettid() that is already there): so the
 * record path keeps its one-syscall-per-thread-life budget, and a thread
 * renamed after its first buffer keeps its first name.  Writing the note
 * is a memcpy of under 1 KiB per buffer taken.
 */
#include <limits.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "recorder.h"

static char exe_path[PATH_MAX];
static uint16_t exe_len;
static __thread char thread_comm[16] __attribute__((tls_model("initial-exec")));

__FDR_NO_INSTRUMENT void fdr__owner_process_setup(void)
{
	ssize_t n = readlink("/proc/self/exe", exe_path, sizeof(exe_path));

	/* No /proc (or a path of PATH_MAX): no path, the note says so. */
	exe_len = n > 0 && n < (ssize_t)sizeof(exe_path) ? (uint16_t)n : 0;
}

__FDR_NO_INSTRUMENT void fdr__owner_thread_setup(void)
{
	char name[16] = "";

	prctl(PR_GET_NAME, name);
	memcpy(thread_comm, name, sizeof(thread_comm));
	thread_comm[sizeof(thread_comm) - 1] = '\0';
}

__FDR_NO_INSTRUMENT static uint64_t note_limit(uint64_t buffer_size)
{
	uint64_t limit = buffer_size / 8;

	return limit < FDR_OWNER_NOTE_MAX ? limit & ~7ull : FDR_OWNER_NOTE_MAX;
}

/* Bytes the note takes at the end of a buffer of this size; 0: none (a
 * buffer too small to spare FDR_OWNER_NOTE_MIN bytes). */
__FDR_NO_INSTRUMENT uint64_t fdr__owner_note_size(uint64_t buffer_size)
{
	uint64_t limit = note_limit(buffer_size);
	uint64_t want = (FDR_OWNER_NOTE_MIN + exe_len + 7) & ~7ull;

	if (limit < FDR_OWNER_NOTE_MIN)
		return 0;
	return want < limit ? want : limit;
}

/* Fill in the note of the buffer t just took, from what t knows (never
 * read back from the shared descriptor, which anyone may scribble). */
__FDR_NO_INSTRUMENT void fdr__owner_note_write(const struct fdr_thread *t,
				       const struct fdr_region *r, uint64_t seq)
{
	uint64_t size = r->note_size;
	uint8_t *at = t->buf + r->buffer_size - size;
	uint64_t room = size - FDR_OWNER_NOTE_MIN;
	struct fdr_owner_note n = {
		.seq = seq,
		.generation = t->generation,
		.pid = fdr__pid,
		.tid = t->tid,
		.exe_len = exe_len <= room ? exe_len : (uint16_t)room,
		.flags = exe_len <= room ? 0 : FDR_OWNER_EXE_TRUNCATED,
	};
	struct fdr_owner_note_tail tail = { (uint32_t)size, FDR_OWNER_NOTE_MAGIC };

	if (!size)
		return;
	memcpy(n.comm, thread_comm, sizeof(n.comm));
	memcpy(at, &n, sizeof(n));
	memcpy(at + sizeof(n), exe_path, n.exe_len);
	memset(at + sizeof(n) + n.exe_len, 0, size - sizeof(n) - n.exe_len - sizeof(tail));
	memcpy(at + size - sizeof(tail), &tail, sizeof(tail));
}
