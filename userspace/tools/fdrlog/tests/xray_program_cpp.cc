// SPDX-License-Identifier: MIT
// xray_program_cpp.cc - a C++ program for run_xray.sh: its function names
// are mangled, and `fdrlog --instr-map` must demangle them as llvm-xray does.
extern "C" int __xray_log_select_mode(const char *mode);
extern "C" int __xray_log_init_mode(const char *mode, const char *config);
extern "C" int __xray_patch(void);
extern "C" int __xray_log_finalize(void);
extern "C" int __xray_log_flushLog(void);

namespace shapes {
template <typename T> struct Box {
	__attribute__((noinline)) T get(T x) const { return x + 1; }
};
} // namespace shapes

__attribute__((noinline)) int combine(int x)
{
	return shapes::Box<int>().get(x) + (int)shapes::Box<long>().get(x);
}

int main()
{
	volatile int sink = 0;

	if (__xray_log_select_mode("xray-fdr") != 0 ||
	    __xray_log_init_mode("xray-fdr", "func_duration_threshold_us=0") != 2)
		return 1;
	__xray_patch();
	for (int i = 0; i < 3; i++)
		sink = sink + combine(i);
	return __xray_log_finalize() == 4 && __xray_log_flushLog() == 2 ? 0 : 1;
}
