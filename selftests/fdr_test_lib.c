// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_test_lib.c - helpers for the /dev/fdr selftests (fdr_test_lib.h).
 */
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "fdr_test_lib.h"

int fdrt_open(void)
{
	int fd = open(FDRT_DEV, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int fdrt_ioctl(int fd, unsigned long cmd)
{
	return ioctl(fd, cmd) ? -errno : 0;
}

int fdrt_status(int fd, struct fdr_status *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	return ioctl(fd, FDR_IOC_STATUS, st) ? -errno : 0;
}

int fdrt_init(int fd, uint64_t buffer_size, uint32_t buffers_per_cpu,
	      uint32_t flags)
{
	struct fdr_init cfg = {
		.size = sizeof(cfg),
		.flags = flags,
		.buffer_size = buffer_size,
		.buffers_per_cpu = buffers_per_cpu,
	};

	return ioctl(fd, FDR_IOC_INIT, &cfg) ? -errno : 0;
}

int fdrt_init_trigger(int fd, uint64_t buffer_size, uint32_t buffers_per_cpu,
		      uint64_t trigger_ns, int32_t trigger_fid,
		      uint32_t holdoff_ms)
{
	struct fdr_init cfg = {
		.size = FDR_INIT_SIZE_VER1,
		.flags = FDR_INIT_NO_SCHED,
		.buffer_size = buffer_size,
		.buffers_per_cpu = buffers_per_cpu,
		.trigger_ns = trigger_ns,
		.trigger_fid = trigger_fid,
		.trigger_holdoff_ms = holdoff_ms,
	};

	return ioctl(fd, FDR_IOC_INIT, &cfg) ? -errno : 0;
}

int fdrt_trigger(int fd, uint32_t flags, int32_t fid, uint64_t duration_ns)
{
	struct fdr_trigger t = {
		.size = sizeof(t),
		.flags = flags,
		.fid = fid,
		.duration_ns = duration_ns,
	};

	return ioctl(fd, FDR_IOC_TRIGGER, &t) ? -errno : 0;
}

static int fdrt_session_req(int fd, unsigned long cmd, const char *name,
			    uint32_t flags, uint32_t gid, uint32_t owner_uid)
{
	struct fdr_session req = {
		.size = sizeof(req),
		.flags = flags,
		.gid = gid,
		.owner_uid = owner_uid,
	};

	snprintf(req.name, sizeof(req.name), "%s", name);
	return ioctl(fd, cmd, &req) ? -errno : 0;
}

int fdrt_session(int fd, unsigned long cmd, const char *name, uint32_t flags,
		 uint32_t gid)
{
	return fdrt_session_req(fd, cmd, name, flags, gid, 0);
}

int fdrt_attach_owner(int fd, const char *name, uint32_t owner_uid)
{
	return fdrt_session_req(fd, FDR_IOC_SESSION_ATTACH, name,
				FDR_SESSION_OWNER, 0, owner_uid);
}

int fdrt_become(uid_t uid, gid_t gid)
{
	if (setgroups(gid ? 1 : 0, &gid) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		return -1;
	return 0;
}

int fdrt_child_result(int (*fn)(void *), void *arg)
{
	int status = fdrt_wait(fdrt_spawn(fn, arg));

	return WIFEXITED(status) ? WEXITSTATUS(status) : 200 + WTERMSIG(status);
}

int fdrt_session_new(const char *name)
{
	int fd = fdrt_open();
	int err;

	if (fd < 0)
		return fd;
	err = fdrt_session(fd, FDR_IOC_SESSION_CREATE, name, 0, 0);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int fdrt_session_info(int fd, uint32_t index, struct fdr_session_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	info->index = index;
	return ioctl(fd, FDR_IOC_SESSION_INFO, info) ? -errno : 0;
}

int fdrt_session_count(int fd)
{
	struct fdr_session_info info;
	int n = 0;

	while (!fdrt_session_info(fd, n, &info))
		n++;
	return n;
}

int fdrt_init_default(int fd, uint32_t flags)
{
	struct fdr_status st;
	int err = fdrt_status(fd, &st);

	if (err)
		return err;
	return fdrt_init(fd, st.default_buffer_size,
			 st.default_buffers_per_cpu, flags);
}

int fdrt_to_uninitialized(int fd)
{
	struct fdr_status st;
	int err = fdrt_status(fd, &st);

	if (err)
		return err;
	switch (st.state) {
	case FDR_STATE_UNINITIALIZED:
		return 0;
	case FDR_STATE_INITIALIZED:
		err = fdrt_ioctl(fd, FDR_IOC_FINALIZE);
		break;
	case FDR_STATE_FINALIZED:
		break;
	default:
		return -EBUSY;	/* a transition is running elsewhere */
	}
	/* Ours, or (tests run as root) whichever file began it. */
	if (!err && st.flush_state == FDR_FLUSH_FLUSHING &&
	    fdrt_ioctl(fd, FDR_IOC_FLUSH_ABORT))
		err = fdrt_ioctl(fd, FDR_IOC_FLUSH_FORCE_ABORT);
	return err ? err : fdrt_ioctl(fd, FDR_IOC_RESET);
}

void *fdrt_map(int fd, int prot, size_t *len)
{
	struct fdr_status st;
	void *p;
	int err = fdrt_status(fd, &st);

	if (err) {
		errno = -err;
		return NULL;
	}
	p = mmap(NULL, st.map_size, prot, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	*len = st.map_size;
	return p;
}

struct fdr_buffer_desc *fdrt_desc(void *ctl, uint32_t i)
{
	const struct fdr_control *c = ctl;

	return (struct fdr_buffer_desc *)((char *)ctl + c->descs_offset) + i;
}

struct fdr_cpu_ring *fdrt_ring(void *ctl, uint32_t cpu)
{
	const struct fdr_control *c = ctl;

	return (struct fdr_cpu_ring *)((char *)ctl + c->rings_offset) + cpu;
}

static int fdrt_read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

long long fdrt_param(const char *name)
{
	char path[256], buf[64];
	int err;

	snprintf(path, sizeof(path), FDRT_PARAMS "%s", name);
	err = fdrt_read_file(path, buf, sizeof(buf));
	if (err)
		return err;
	if (buf[0] == 'Y' || buf[0] == 'N')
		return buf[0] == 'Y';
	return strtoll(buf, NULL, 0);
}

int fdrt_write_param(const char *name, long long v)
{
	char path[256];
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), FDRT_PARAMS "%s", name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	if (fprintf(f, "%lld\n", v) < 0)
		err = -EIO;
	if (fclose(f))
		err = -errno;
	return err;
}

int fdrt_cpu_node(unsigned int cpu)
{
	char path[64];
	struct dirent *de;
	DIR *dir;
	int node = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u", cpu);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((de = readdir(dir)))
		if (!strncmp(de->d_name, "node", 4) &&
		    de->d_name[4] >= '0' && de->d_name[4] <= '9')
			node = atoi(de->d_name + 4);
	closedir(dir);
	return node;
}

int fdrt_nr_possible_cpus(void)
{
	char buf[256], *last;
	int err = fdrt_read_file("/sys/devices/system/cpu/possible", buf,
				 sizeof(buf));

	if (err)
		return err;
	/* "0-3" or "0,2-5": the last number is the highest id. */
	last = buf + strlen(buf);
	while (last > buf && (last[-1] < '0' || last[-1] > '9'))
		last--;
	while (last > buf && last[-1] >= '0' && last[-1] <= '9')
		last--;
	return atoi(last) + 1;
}

int fdrt_cpuinfo_has(const char *flag)
{
	static char buf[1 << 16];
	char *line, *p;
	size_t n = strlen(flag);

	if (fdrt_read_file("/proc/cpuinfo", buf, sizeof(buf)))
		return 0;
	line = strstr(buf, "\nflags");
	if (!line)
		return 0;
	line = strchr(line, ':');
	for (p = line; p && (p = strstr(p, flag)); p += n)
		if (p[-1] == ' ' && (p[n] == ' ' || p[n] == '\n'))
			return 1;
	return 0;
}

pid_t fdrt_spawn(int (*fn)(void *), void *arg)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg));
	return pid < 0 ? -errno : pid;
}

int fdrt_wait(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return status;
}

int fdrt_load_module(const char *params)
{
	int fd = open(FDRT_KO, O_RDONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params, 0))
		err = -errno;
	close(fd);
	return err;
}

int fdrt_unload_module(void)
{
	return syscall(SYS_delete_module, "fdr", O_NONBLOCK) ? -errno : 0;
}

static long long fdrt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ll + ts.tv_nsec / 1000000;
}

int fdrt_wait_u32(const volatile uint32_t *word, uint32_t want, int ms)
{
	const struct timespec tick = { 0, 1000000 };
	long long end = fdrt_now_ms() + ms;

	while (*word != want) {
		if (fdrt_now_ms() > end)
			return -ETIMEDOUT;
		nanosleep(&tick, NULL);
	}
	return 0;
}

long long fdrt_mem_free_kib(void)
{
	char line[256];
	long long pages = 0, n;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " pages free %lld", &n) == 1 ||
		    sscanf(line, " count: %lld", &n) == 1)
			pages += n;
	fclose(f);
	return pages * (sysconf(_SC_PAGESIZE) / 1024);
}
