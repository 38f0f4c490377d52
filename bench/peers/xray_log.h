/* SPDX-License-Identifier: MIT */
/*
 * xray_log.h - the part of compiler-rt's XRay interface the benchmark
 * calls, declared for C (the real headers are C++; the format draft ../shared/FORMAT.md §6).
 * Enumerators are renamed; only the values cross the ABI.
 */
#ifndef BENCH_XRAY_LOG_H
#define BENCH_XRAY_LOG_H

enum bench_xray_log_init_status {
	BENCH_XRAY_LOG_UNINITIALIZED = 0,
	BENCH_XRAY_LOG_INITIALIZING = 1,
	BENCH_XRAY_LOG_INITIALIZED = 2,
	BENCH_XRAY_LOG_FINALIZING = 3,
	BENCH_XRAY_LOG_FINALIZED = 4,
};

enum bench_xray_log_flush_status {
	BENCH_XRAY_LOG_NOT_FLUSHING = 0,
	BENCH_XRAY_LOG_FLUSHING = 1,
	BENCH_XRAY_LOG_FLUSHED = 2,
};

enum bench_xray_patching_status {
	BENCH_XRAY_NOT_INITIALIZED = 0,
	BENCH_XRAY_PATCH_SUCCESS = 1,
	BENCH_XRAY_PATCH_ONGOING = 2,
	BENCH_XRAY_PATCH_FAILED = 3,
};

#define BENCH_XRAY_REGISTRATION_OK 0

int __xray_log_select_mode(const char *mode);
int __xray_log_init_mode(const char *mode, const char *config);
int __xray_log_finalize(void);
int __xray_log_flushLog(void);
int __xray_patch(void);
int __xray_unpatch(void);

#endif
