// SPDX-License-Identifier: GPL-2.0
/*
 * fdr_mmap_test.c - mapping the region: control area contents, geometry
 * and NUMA placement, bad arguments, sharing between processes, lifetime
 * across RESET, and the VMA being a normal-page mapping.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kselftest_harness.h"
#include "fdr_fixture.h"

static long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

TEST_F(dev, control_area_header)
{
	struct fdr_status st;
	struct fdr_control *c;
	size_t len;
	uint32_t tsc_flags = 0;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	c = fdrt_map(self->fd, PROT_READ, &len);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(FDR_CONTROL_MAGIC, c->magic);
	ASSERT_EQ(FDR_ABI_VERSION, c->abi_version);
	ASSERT_EQ(sizeof(struct fdr_control), c->header_size);
	ASSERT_EQ(st.generation, c->generation);
	ASSERT_NE(0, c->generation);
	ASSERT_EQ(st.flags, c->flags);
	ASSERT_EQ(st.tsc_hz, c->tsc_hz);
	ASSERT_EQ(FDR_STATE_INITIALIZED, c->state);
	ASSERT_EQ(FDR_FLUSH_NOT_FLUSHING, c->flush_state);
	ASSERT_EQ(FDR_FINALIZE_NONE, c->finalize_reason);
	ASSERT_EQ(0, c->next_seq);
	ASSERT_EQ(0, c->buffers_acquired | c->buffers_recycled |
		     c->records_dropped | c->buffers_reclaimed);
	ASSERT_EQ(0, c->reserved0 | c->reserved1);
	/* The TSC facts agree with what the kernel tells /proc/cpuinfo. */
	if (fdrt_cpuinfo_has("tsc"))
		ASSERT_NE(0, c->tsc_hz);
	if (fdrt_cpuinfo_has("constant_tsc"))
		tsc_flags |= FDR_CTL_CONSTANT_TSC;
	if (fdrt_cpuinfo_has("nonstop_tsc"))
		tsc_flags |= FDR_CTL_NONSTOP_TSC;
	ASSERT_EQ(tsc_flags, c->flags & (FDR_CTL_CONSTANT_TSC |
					 FDR_CTL_NONSTOP_TSC));
	ASSERT_EQ(0, c->flags & FDR_CTL_EMBEDDED);
	ASSERT_EQ(FDR_CTL_CRASH_FINALIZE * !!fdrt_param("crash_finalize"),
		  c->flags & FDR_CTL_CRASH_FINALIZE);
	/* FINALIZE shows up in the mapped state line. */
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(FDR_STATE_FINALIZED, c->state);
	ASSERT_EQ(FDR_FINALIZE_IOCTL, c->finalize_reason);
	ASSERT_EQ(getpid(), c->finalize_pid);
	ASSERT_NE(0, c->finalize_time_ns);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FLUSH_BEGIN));
	ASSERT_EQ(FDR_FLUSH_FLUSHING, c->flush_state);
	ASSERT_EQ(0, munmap(c, len));
}

/* Every offset as documented, descriptors on cache lines, pages per node. */
TEST_F(dev, geometry_and_numa)
{
	const long page = page_size();
	struct fdr_region_offsets o;
	struct fdr_status st;
	struct fdr_control *c;
	size_t len;
	uint32_t i;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init(self->fd, 2 * page, 3, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	c = fdrt_map(self->fd, PROT_READ, &len);
	ASSERT_NE(NULL, c);

	ASSERT_EQ(fdrt_nr_possible_cpus(), (int)c->nr_cpus);
	ASSERT_EQ(st.nr_cpus, c->nr_cpus);
	ASSERT_EQ(3, c->buffers_per_cpu);
	ASSERT_EQ(c->nr_cpus * 3, c->nr_buffers);
	ASSERT_EQ(2 * page, c->buffer_size);
	ASSERT_EQ(FDR_CONTROL_HEADER_SIZE, c->rings_offset);
	ASSERT_EQ(c->rings_offset + c->nr_cpus * FDR_CPU_RING_SIZE,
		  c->descs_offset);
	ASSERT_EQ(0, c->descs_offset % 64);
	ASSERT_EQ(0, c->control_size % page);
	ASSERT_GE(c->control_size,
		  c->descs_offset + (uint64_t)c->nr_buffers * FDR_BUFFER_DESC_SIZE);
	ASSERT_LT(c->control_size - page,
		  c->descs_offset + (uint64_t)c->nr_buffers * FDR_BUFFER_DESC_SIZE);
	ASSERT_EQ(st.control_size, c->control_size);
	ASSERT_EQ(c->control_size + (uint64_t)c->nr_buffers * c->buffer_size,
		  st.map_size);
	ASSERT_EQ(st.map_size, len);
	/* STATUS (since VER3) reports the same offsets, and so does the
	 * one computation of them in the ABI header. */
	ASSERT_EQ(page, (long)st.page_size);
	ASSERT_EQ(c->rings_offset, st.rings_offset);
	ASSERT_EQ(c->descs_offset, st.descs_offset);
	ASSERT_EQ(c->control_size, st.buffers_offset);
	ASSERT_EQ(0, fdr_region_offsets_compute(st.nr_cpus, 3, 2 * page, page,
						&o));
	ASSERT_EQ(st.rings_offset, o.rings);
	ASSERT_EQ(st.descs_offset, o.descs);
	ASSERT_EQ(st.buffers_offset, o.buffers);
	ASSERT_EQ(st.map_size, o.map_size);
	ASSERT_EQ(st.nr_buffers, o.nr_buffers);

	for (i = 0; i < c->nr_cpus; i++)
		ASSERT_EQ(0, fdrt_ring(c, i)->next);
	for (i = 0; i < c->nr_buffers; i++) {
		struct fdr_buffer_desc *d = fdrt_desc(c, i);
		int node = fdrt_cpu_node(d->cpu);

		ASSERT_EQ(0, (uintptr_t)d % 64);
		ASSERT_EQ(i / 3, d->cpu);
		ASSERT_EQ(c->control_size + (uint64_t)i * c->buffer_size,
			  d->offset);
		ASSERT_EQ(0, d->offset % page);
		ASSERT_EQ(0, ((uintptr_t)c + d->offset) % page);
		ASSERT_EQ(FDR_BUF_FREE, d->state);
		ASSERT_EQ(0, d->extents | d->seq | d->generation);
		ASSERT_EQ(0, d->owner_pid | d->owner_tid);
		/* No node in sysfs: a non-NUMA kernel, everything is node 0. */
		ASSERT_EQ(node < 0 ? 0 : node, (int)d->node)
			TH_LOG("buffer %u of cpu %u", i, d->cpu);
	}
	ASSERT_EQ(0, munmap(c, len));
}

TEST_F(dev, buffers_zeroed_and_writable)
{
	struct fdr_control *c;
	size_t len, off;
	uint32_t i;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	c = fdrt_map(self->fd, PROT_READ | PROT_WRITE, &len);
	ASSERT_NE(NULL, c);
	for (off = c->control_size; off < len; off += sizeof(uint64_t))
		ASSERT_EQ(0, *(uint64_t *)((char *)c + off));
	for (i = 0; i < c->nr_buffers; i++) {
		char *b = (char *)c + fdrt_desc(c, i)->offset;

		b[0] = (char)i;
		b[c->buffer_size - 1] = (char)~i;
	}
	for (i = 0; i < c->nr_buffers; i++) {
		char *b = (char *)c + fdrt_desc(c, i)->offset;

		ASSERT_EQ((char)i, b[0]);
		ASSERT_EQ((char)~i, b[c->buffer_size - 1]);
	}
	ASSERT_EQ(0, munmap(c, len));
}

TEST_F(dev, bad_mmap_args)
{
	const long page = page_size();
	struct fdr_status st;
	void *p;

	REQUIRE_DEV();
	/* No region yet. */
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_EQ(MAP_FAILED, p);
	ASSERT_EQ(ENODEV, errno);

	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	p = mmap(NULL, page, PROT_READ, MAP_PRIVATE, self->fd, 0);
	ASSERT_EQ(MAP_FAILED, p);
	ASSERT_EQ(EINVAL, errno);
	/* Past the region and its scheduling area (fdr_sched_test.c). */
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd,
		 st.map_size + st.sched_size);
	ASSERT_EQ(MAP_FAILED, p);
	ASSERT_EQ(EINVAL, errno);
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd,
		 st.map_size + st.sched_size + 16 * page);
	ASSERT_EQ(MAP_FAILED, p);
	ASSERT_EQ(EINVAL, errno);
	p = mmap(NULL, st.map_size + page, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_EQ(MAP_FAILED, p);
	ASSERT_EQ(EINVAL, errno);
	p = mmap(NULL, st.map_size, PROT_READ, MAP_SHARED, self->fd, page);
	ASSERT_EQ(MAP_FAILED, p);
	ASSERT_EQ(EINVAL, errno);
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd, 100);
	ASSERT_EQ(MAP_FAILED, p);
	ASSERT_EQ(EINVAL, errno);
	p = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_SHARED, self->fd, 0);
	ASSERT_EQ(MAP_FAILED, p);
	ASSERT_EQ(EPERM, errno);
	/* Still INITIALIZED and mappable. */
	p = mmap(NULL, st.map_size, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p, st.map_size));
}

/* One buffer mapped alone at its offset is the same memory. */
TEST_F(dev, map_one_buffer_at_offset)
{
	struct fdr_control *c;
	struct fdr_buffer_desc *d;
	char *b;
	size_t len;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	c = fdrt_map(self->fd, PROT_READ, &len);
	ASSERT_NE(NULL, c);
	d = fdrt_desc(c, c->nr_buffers - 1);
	b = mmap(NULL, c->buffer_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->fd, d->offset);
	ASSERT_NE(MAP_FAILED, b);
	memcpy(b + 100, "flight", 6);
	ASSERT_EQ(0, memcmp((char *)c + d->offset + 100, "flight", 6));
	ASSERT_EQ(0, munmap(b, c->buffer_size));
	ASSERT_EQ(0, munmap(c, len));
}

/* A second process writes through its own open and mapping. */
static int writer_child(void *arg)
{
	size_t len;
	int fd = fdrt_open();
	struct fdr_control *c;
	char *b;

	(void)arg;
	if (fd < 0)
		return 10;
	c = fdrt_map(fd, PROT_READ | PROT_WRITE, &len);
	if (!c)
		return 11;
	b = (char *)c + fdrt_desc(c, 1)->offset;
	if (memcmp(b, "parent", 6))
		return 12;
	memcpy(b + 64, "child", 5);
	__atomic_store_n(&fdrt_desc(c, 1)->extents, 69, __ATOMIC_RELEASE);
	return 0;
}

TEST_F(dev, write_visible_across_processes)
{
	struct fdr_control *c;
	size_t len;
	char *b;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	c = fdrt_map(self->fd, PROT_READ | PROT_WRITE, &len);
	ASSERT_NE(NULL, c);
	b = (char *)c + fdrt_desc(c, 1)->offset;
	memcpy(b, "parent", 6);
	pid = fdrt_spawn(writer_child, NULL);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, fdrt_wait(pid));
	ASSERT_EQ(69, __atomic_load_n(&fdrt_desc(c, 1)->extents,
				      __ATOMIC_ACQUIRE));
	ASSERT_EQ(0, memcmp(b + 64, "child", 5));
	ASSERT_EQ(0, munmap(c, len));
}

/* A mapping keeps its pages after RESET; the next INIT gets new ones. */
TEST_F(dev, memory_alive_across_reset)
{
	struct fdr_control *old, *new;
	size_t old_len, new_len, i;
	uint32_t gen;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	old = fdrt_map(self->fd, PROT_READ | PROT_WRITE, &old_len);
	ASSERT_NE(NULL, old);
	gen = old->generation;
	for (i = old->control_size; i < old_len; i += 512)
		((char *)old)[i] = (char)(i / 512);
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_RESET));
	/* Writers of the old region are told to stop. */
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, old->state);
	ASSERT_EQ(FDR_CONTROL_MAGIC, old->magic);

	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	new = fdrt_map(self->fd, PROT_READ, &new_len);
	ASSERT_NE(NULL, new);
	ASSERT_EQ(gen + 1, new->generation);
	ASSERT_EQ(FDR_STATE_INITIALIZED, new->state);
	for (i = new->control_size; i < new_len; i += 512)
		ASSERT_EQ(0, ((char *)new)[i]);
	for (i = old->control_size; i < old_len; i += 512)
		ASSERT_EQ((char)(i / 512), ((char *)old)[i]);
	ASSERT_EQ(FDR_STATE_UNINITIALIZED, old->state);
	ASSERT_EQ(0, munmap(old, old_len));
	ASSERT_EQ(0, munmap(new, new_len));
}

/* madvise(MADV_DONTNEED) drops PTEs, never the recorder's data. */
TEST_F(dev, dontneed_keeps_data)
{
	struct fdr_control *c;
	size_t len;
	char *b;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	c = fdrt_map(self->fd, PROT_READ | PROT_WRITE, &len);
	ASSERT_NE(NULL, c);
	b = (char *)c + fdrt_desc(c, 0)->offset;
	memcpy(b, "survives", 8);
	ASSERT_EQ(0, madvise(c, len, MADV_DONTNEED));
	ASSERT_EQ(0, memcmp(b, "survives", 8));
	ASSERT_EQ(FDR_CONTROL_MAGIC, c->magic);
	ASSERT_EQ(0, munmap(c, len));
}

/* A read-only open maps read-only and cannot upgrade. */
TEST_F(dev, readonly_open_maps_readonly)
{
	struct fdr_status st;
	int rofd;
	void *p;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	rofd = open(FDRT_DEV, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, rofd);
	p = mmap(NULL, st.map_size, PROT_READ | PROT_WRITE, MAP_SHARED, rofd, 0);
	ASSERT_EQ(MAP_FAILED, p);
	ASSERT_EQ(EACCES, errno);
	p = mmap(NULL, st.map_size, PROT_READ, MAP_SHARED, rofd, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(FDR_CONTROL_MAGIC, ((struct fdr_control *)p)->magic);
	ASSERT_EQ(-1, mprotect(p, st.map_size, PROT_READ | PROT_WRITE));
	ASSERT_EQ(EACCES, errno);
	ASSERT_EQ(-1, mprotect(p, st.map_size, PROT_READ | PROT_EXEC));
	ASSERT_EQ(EACCES, errno);
	/* Dropping to PROT_NONE and back is fine. */
	ASSERT_EQ(0, mprotect(p, st.map_size, PROT_NONE));
	ASSERT_EQ(0, mprotect(p, st.map_size, PROT_READ));
	ASSERT_EQ(FDR_CONTROL_MAGIC, ((struct fdr_control *)p)->magic);
	ASSERT_EQ(0, munmap(p, st.map_size));
	close(rofd);
}

TEST_F(dev, mremap_cannot_grow)
{
	const long page = page_size();
	struct fdr_control *c;
	size_t len;
	void *p;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	c = fdrt_map(self->fd, PROT_READ, &len);
	ASSERT_NE(NULL, c);
	p = mremap(c, len, len + page, MREMAP_MAYMOVE);
	ASSERT_EQ(MAP_FAILED, p);
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(FDR_CONTROL_MAGIC, c->magic);
	ASSERT_EQ(0, munmap(c, len));
}

/* Does /proc/self/smaps show @flag ("io", "dd", ...) for the VMA at @addr? */
static int vma_has_flag(void *addr, const char *flag)
{
	char line[512], want[8];
	unsigned long start, end;
	int in_vma = 0, found = -1;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	snprintf(want, sizeof(want), " %s", flag);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in_vma = (uintptr_t)addr >= start && (uintptr_t)addr < end;
			continue;
		}
		if (in_vma && !strncmp(line, "VmFlags:", 8)) {
			char *p = strstr(line, want);

			found = p && (p[strlen(want)] == ' ' ||
				      p[strlen(want)] == '\n');
			break;
		}
	}
	fclose(f);
	return found;
}

/*
 * A debugger reads the pages through /proc/PID/mem, which refuses
 * VM_IO/VM_PFNMAP mappings; the VMA must be a normal-page mapping.
 */
TEST_F(dev, normal_pages_readable_by_debugger)
{
	struct fdr_control *c;
	struct fdr_control copy;
	size_t len;
	int memfd;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	c = fdrt_map(self->fd, PROT_READ, &len);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, vma_has_flag(c, "io"));
	ASSERT_EQ(0, vma_has_flag(c, "pf"));
	ASSERT_EQ(1, vma_has_flag(c, "de"));
	ASSERT_EQ(1, vma_has_flag(c, "dd"));
	ASSERT_EQ(1, vma_has_flag(c, "sh"));
	memfd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, memfd);
	ASSERT_EQ(sizeof(copy), pread(memfd, &copy, sizeof(copy), (uintptr_t)c));
	ASSERT_EQ(0, memcmp(&copy, c, sizeof(copy)));
	close(memfd);
	ASSERT_EQ(0, munmap(c, len));
}

/* A forked child shares the mapping (no copy-on-write). */
TEST_F(dev, fork_shares_mapping)
{
	struct fdr_control *c;
	size_t len;
	char *b;
	pid_t pid;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	c = fdrt_map(self->fd, PROT_READ | PROT_WRITE, &len);
	ASSERT_NE(NULL, c);
	b = (char *)c + fdrt_desc(c, 0)->offset;
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		memcpy(b, "forked", 6);
		_exit(0);
	}
	ASSERT_EQ(0, fdrt_wait(pid));
	ASSERT_EQ(0, memcmp(b, "forked", 6));
	ASSERT_EQ(0, munmap(c, len));
}

#define REGION_MIB 128
#define SLACK_KIB (4 * 1024)

/*
 * The pages of a region are freed exactly when its last user goes: not at
 * RESET while mapped, but at the munmap after it.
 */
TEST_F(dev, region_freed_after_last_unmap)
{
	long long before, mapped, after_reset, after_unmap;
	struct fdr_control *c;
	size_t len;
	int ncpu = fdrt_nr_possible_cpus();

	REQUIRE_DEV();
	ASSERT_GT(ncpu, 0);
	before = fdrt_mem_free_kib();
	ASSERT_LT(0, before);
	ASSERT_EQ(0, fdrt_init(self->fd, 1 << 20, REGION_MIB / ncpu, 0));
	c = fdrt_map(self->fd, PROT_READ, &len);
	ASSERT_NE(NULL, c);
	mapped = fdrt_mem_free_kib();
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
	ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_RESET));
	after_reset = fdrt_mem_free_kib();
	ASSERT_EQ(0, munmap(c, len));
	after_unmap = fdrt_mem_free_kib();
	TH_LOG("free KiB: before %lld, mapped %lld, reset %lld, unmapped %lld",
	       before, mapped, after_reset, after_unmap);
	/* The region's memory really was taken ... */
	ASSERT_LT(mapped, before - (long long)len / 1024 + SLACK_KIB);
	/* ... stays taken while mapped after RESET ... */
	ASSERT_LT(after_reset, before - (long long)len / 1024 + SLACK_KIB);
	/* ... and comes back with the last mapping. */
	ASSERT_GT(after_unmap, before - SLACK_KIB);
}

/* Many INIT/map/RESET/unmap cycles and failed INITs leak nothing. */
TEST_F(dev, no_leak_over_cycles)
{
	long long before, after;
	int ncpu = fdrt_nr_possible_cpus();
	int i;

	REQUIRE_DEV();
	before = fdrt_mem_free_kib();
	for (i = 0; i < 20; i++) {
		struct fdr_control *c;
		size_t len;

		ASSERT_EQ(-ENOMEM, fdrt_init(self->fd, 1ull << 40, 1, 0));
		ASSERT_EQ(0, fdrt_init(self->fd, 1 << 20, 8 / ncpu + 1, 0));
		c = fdrt_map(self->fd, PROT_READ | PROT_WRITE, &len);
		ASSERT_NE(NULL, c);
		memset((char *)c + c->control_size, 1, len - c->control_size);
		ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_FINALIZE));
		ASSERT_EQ(0, fdrt_ioctl(self->fd, FDR_IOC_RESET));
		ASSERT_EQ(0, munmap(c, len));
	}
	after = fdrt_mem_free_kib();
	TH_LOG("free KiB: before %lld, after %lld", before, after);
	ASSERT_GT(after, before - SLACK_KIB);
}

static long long meminfo_kib(const char *key)
{
	char line[128];
	long long kib = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && sscanf(line + n, " %lld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/*
 * A real allocation failure half-way through INIT: with memory held so
 * that a region of almost half of RAM cannot fit, INIT fails with ENOMEM
 * (no OOM kill, no warning), the state is UNINITIALIZED again and every
 * page it did get is back.
 */
TEST_F(dev, init_enomem_frees_partial_allocation)
{
	long long total = meminfo_kib("MemTotal:");
	long long avail = fdrt_mem_free_kib();
	long long saved = fdrt_param("max_total_mb");
	long long before, after;
	size_t hold;
	uint32_t per_cpu;
	int ncpu = fdrt_nr_possible_cpus();
	char *p;
	int err;

	REQUIRE_DEV();
	ASSERT_GT(total, 0);
	ASSERT_GT(ncpu, 0);
	/*
	 * Leave about 64 MiB less free than the region needs (free pages,
	 * not MemAvailable: with no swap, only free pages can be had).
	 */
	if (avail < total / 2 + 128 * 1024)
		SKIP(return, "too little memory available to squeeze");
	hold = (size_t)(avail - total / 2 + 64 * 1024) * 1024;
	per_cpu = (total / 2 / 1024 - 8) / ncpu;
	p = mmap(NULL, hold, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, fdrt_write_param("max_total_mb", 1 << 20));
	before = fdrt_mem_free_kib();
	err = fdrt_init(self->fd, 1 << 20, per_cpu, 0);
	after = fdrt_mem_free_kib();
	ASSERT_EQ(0, fdrt_write_param("max_total_mb", saved));
	ASSERT_EQ(0, munmap(p, hold));
	TH_LOG("held %zu MiB, asked %u MiB: %s; free KiB %lld -> %lld",
	       hold >> 20, per_cpu * ncpu, strerror(-err), before, after);
	ASSERT_EQ(-ENOMEM, err);
	ASSERT_GT(after, before - SLACK_KIB);
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
}

#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif
#ifndef MAP_SYNC
#define MAP_SYNC 0x80000
#endif

struct mmap_case {
	const char *what;
	int prot, flags;
	int off_pages;		/* from 0; -1: the last buffer's offset */
	long len_pages;		/* 0: the whole region */
	int extra_len;		/* bytes added to the length */
	int err;		/* expected errno, 0 for success */
};

/* Every combination answers its errno and leaves the device as it was. */
TEST_F(dev, mmap_sweep)
{
	const long page = page_size();
	const struct mmap_case cases[] = {
		{ "PROT_READ shared", PROT_READ, MAP_SHARED, 0, 0, 0, 0 },
		{ "PROT_NONE shared", PROT_NONE, MAP_SHARED, 0, 0, 0, 0 },
		{ "PROT_WRITE shared", PROT_WRITE, MAP_SHARED, 0, 1, 0, 0 },
		{ "MAP_SHARED_VALIDATE", PROT_READ, MAP_SHARED_VALIDATE, 0, 0, 0, 0 },
		{ "MAP_SYNC", PROT_READ, MAP_SHARED_VALIDATE | MAP_SYNC, 0, 1, 0, EOPNOTSUPP },
		{ "MAP_PRIVATE", PROT_READ, MAP_PRIVATE, 0, 1, 0, EINVAL },
		{ "MAP_PRIVATE rw", PROT_READ | PROT_WRITE, MAP_PRIVATE, 0, 1, 0, EINVAL },
		{ "PROT_EXEC", PROT_EXEC, MAP_SHARED, 0, 1, 0, EPERM },
		{ "PROT_READ|PROT_EXEC", PROT_READ | PROT_EXEC, MAP_SHARED, 0, 1, 0, EPERM },
		{ "MAP_HUGETLB", PROT_READ, MAP_SHARED | MAP_HUGETLB, 0, 1, 0, EINVAL },
		{ "length 0", PROT_READ, MAP_SHARED, 0, -1, 0, EINVAL },
		{ "one page past the end", PROT_READ, MAP_SHARED, 0, 0, 1, EINVAL },
		{ "last buffer", PROT_READ, MAP_SHARED, -1, -2, 0, 0 },
		{ "last buffer + 1 page", PROT_READ, MAP_SHARED, -1, -2, 1, EINVAL },
		{ "control area only", PROT_READ, MAP_SHARED, 0, -3, 0, 0 },
		{ "partial page length", PROT_READ, MAP_SHARED, 0, -3, -100, 0 },
	};
	struct fdr_status st, after;
	unsigned int i;

	REQUIRE_DEV();
	ASSERT_EQ(0, fdrt_init_default(self->fd, 0));
	ASSERT_EQ(0, fdrt_status(self->fd, &st));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct mmap_case *k = &cases[i];
		uint64_t off = 0, len;
		void *p;

		if (k->off_pages == -1)
			off = st.map_size - st.buffer_size;
		switch (k->len_pages) {
		case 0:	len = st.map_size; break;
		case -1: len = 0; break;
		case -2: len = st.buffer_size; break;
		case -3: len = st.control_size; break;
		default: len = k->len_pages * page;
		}
		len += k->extra_len > 0 ? k->extra_len * page : k->extra_len;
		p = mmap(NULL, len, k->prot, k->flags, self->fd, off);
		if (k->err) {
			EXPECT_EQ(MAP_FAILED, p) TH_LOG("%s was accepted", k->what);
			EXPECT_EQ(k->err, errno) TH_LOG("%s: errno %d, want %d",
							k->what, errno, k->err);
		} else {
			EXPECT_NE(MAP_FAILED, p) TH_LOG("%s: errno %d", k->what,
							errno);
			if (p != MAP_FAILED && (k->prot & PROT_READ) && off == 0)
				EXPECT_EQ(FDR_CONTROL_MAGIC,
					  ((struct fdr_control *)p)->magic);
			if (p != MAP_FAILED)
				munmap(p, len);
		}
		ASSERT_EQ(0, fdrt_status(self->fd, &after));
		ASSERT_EQ(st.state, after.state);
		ASSERT_EQ(st.generation, after.generation);
		ASSERT_EQ(st.map_size, after.map_size);
	}
}

TEST_HARNESS_MAIN
