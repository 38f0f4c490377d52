/* SPDX-License-Identifier: MIT */
/*
 * xray_abi.h - the C entry points of compiler-rt's XRay runtime (LLVM 19).
 *
 * The runtime's own headers are C++ (<cstdint>, unguarded extern "C"), so
 * the adapter declares what it uses here, from Documentation/format.md §6.
 * Enumerators carry an FDR_XRAY_ prefix so they cannot clash with user
 * code; only their values cross the ABI.
 */
#ifndef FDR_XRAY_ABI_H
#define FDR_XRAY_ABI_H

#include <stddef.h>
#include <stdint.h>

/* XRayEntryType */
enum fdr_xray_entry_type {
	FDR_XRAY_ENTRY = 0,
	FDR_XRAY_EXIT = 1,
	FDR_XRAY_TAIL = 2,
	FDR_XRAY_LOG_ARGS_ENTRY = 3,
	FDR_XRAY_CUSTOM_EVENT = 4,
	FDR_XRAY_TYPED_EVENT = 5,
};

/* XRayLogInitStatus */
enum fdr_xray_log_init_status {
	FDR_XRAY_LOG_UNINITIALIZED = 0,
	FDR_XRAY_LOG_INITIALIZING = 1,
	FDR_XRAY_LOG_INITIALIZED = 2,
	FDR_XRAY_LOG_FINALIZING = 3,
	FDR_XRAY_LOG_FINALIZED = 4,
};

/* XRayLogFlushStatus */
enum fdr_xray_log_flush_status {
	FDR_XRAY_LOG_NOT_FLUSHING = 0,
	FDR_XRAY_LOG_FLUSHING = 1,
	FDR_XRAY_LOG_FLUSHED = 2,
};

/* XRayLogRegisterStatus */
enum fdr_xray_log_register_status {
	FDR_XRAY_REGISTRATION_OK = 0,
	FDR_XRAY_DUPLICATE_MODE = 1,
	FDR_XRAY_MODE_NOT_FOUND = 2,
	FDR_XRAY_INCOMPLETE_IMPL = 3,
};

/* XRayLogImpl: four function pointers, in this order. */
struct fdr_xray_log_impl {
	enum fdr_xray_log_init_status (*log_init)(size_t buffer_size,
						  size_t max_buffers,
						  void *args, size_t args_size);
	enum fdr_xray_log_init_status (*log_finalize)(void);
	void (*handle_arg0)(int32_t func_id, enum fdr_xray_entry_type type);
	enum fdr_xray_log_flush_status (*flush_log)(void);
};

/* XRayPatchingStatus */
enum fdr_xray_patching_status {
	FDR_XRAY_PATCH_NOT_INITIALIZED = 0,
	FDR_XRAY_PATCH_SUCCESS = 1,
	FDR_XRAY_PATCH_ONGOING = 2,
	FDR_XRAY_PATCH_FAILED = 3,
};

/* xray_interface.h: patching, by function id (1-based) or all at once. */
enum fdr_xray_patching_status __xray_patch(void);
enum fdr_xray_patching_status __xray_unpatch(void);
enum fdr_xray_patching_status __xray_patch_function(int32_t func_id);
enum fdr_xray_patching_status __xray_unpatch_function(int32_t func_id);
size_t __xray_max_function_id(void);

/* xray_interface.h: setters return 1 on success, 0 before __xray_init. */
int __xray_set_handler(void (*entry)(int32_t, enum fdr_xray_entry_type));
int __xray_set_handler_arg1(void (*entry)(int32_t, enum fdr_xray_entry_type,
					  uint64_t));
int __xray_remove_handler_arg1(void);
int __xray_set_customevent_handler(void (*entry)(void *, size_t));
int __xray_remove_customevent_handler(void);

/* xray_log_interface.h.  Never call these from inside the mode's
 * callbacks: the runtime holds a spin mutex around log_init, log_finalize
 * and flush_log. */
enum fdr_xray_log_register_status
__xray_log_register_mode(const char *mode, struct fdr_xray_log_impl impl);
enum fdr_xray_log_register_status __xray_log_select_mode(const char *mode);
const char *__xray_log_get_current_mode(void);
enum fdr_xray_log_init_status __xray_log_init_mode(const char *mode,
						   const char *config);
enum fdr_xray_log_init_status __xray_log_finalize(void);
enum fdr_xray_log_flush_status __xray_log_flushLog(void);

#endif /* FDR_XRAY_ABI_H */
