#!/bin/sh
# SPDX-License-Identifier: MIT
# fdr-cc, fdr-c++: drop-in C and C++ compilers for programs to record with
# `fdr record` (make CC=fdr-cc CXX=fdr-c++).  They run clang-19 (clang++-19)
# with XRay's instrumentation and, when linking a program, link the fdr
# XRay mode; with --gcc or FDR_CC=gcc, gcc (g++) with
# -finstrument-functions and fdr's hooks; with --patchable, clang-19 with
# -fpatchable-function-entry=5 (a 5-byte nop at each function's entry,
# what uftrace -P patches too) and fdr's runtime that patches those nops
# when fdr record runs or attaches to the program (under 1 % when
# nobody records, where XRay's sleds cost about 7 %; more per recorded
# call: Documentation/integrations.md, "fdr-cc --patchable").  Everything else is the
# compiler's own: the arguments are passed on unchanged.
#
#   compile only (-c, -S, -E, -M, -MM)   only the instrumentation flag
#   -shared, -r                          no fdr library (the program that
#                                        loads it brings the recorder)
#
# XRay in shared libraries: clang-19 compiles the sleds into a -shared
# library, but its XRay runtime patches only the main executable's (the
# per-DSO runtime, -fxray-shared, is LLVM 20's).  fdr's XRay mode patches
# a library's sleds itself, at start and when the program's dlopen()
# returns (a dynamic program is linked with --wrap=dlopen,--wrap=dlclose);
# --gcc libraries are recorded too (the program exports the hooks).
#   a program (static or dynamic)        + the fdr libraries, at the end
#
# The libraries are found in $FDR_LIBDIR, else where make install put
# them, else next to this script (bin/../adapters, bin/../lib of the
# build tree).  The XRay mode's archive is linked bare with
# --undefined=fdr_xray_mode_link (what the libfdr-xray.a ld script says,
# without the script's absolute build path), so a copied tree works too.
set -eu

self=$(readlink -f "$0")
top=$(dirname "$(dirname "$self")")
case $(basename "$0") in
*++*|*cxx*) lang=c++ ;;
*) lang=c ;;
esac

family=clang
compiler=${FDR_CC:-}
case ${compiler##*/} in
*gcc*|*g++*) family=gcc ;;
esac

# Pass 1: our own flag, and what kind of invocation this is.
link=yes inputs=0 skip_next=no patchable=no first=
for a in "$@"; do
	if [ "$skip_next" = yes ]; then skip_next=no; continue; fi
	case $a in
	--gcc) family=gcc ;;
	--patchable) patchable=yes ;;
	-c|-S|-E|-M|-MM) link=no ;;
	-shared|-r) [ "$link" = yes ] && link=lib ;;
	-o|-I|-L|-x|-MF|-MT|-MQ|-include|-imacros|-isystem|-idirafter|-iquote|\
	-isysroot|-Xlinker|-Xassembler|-Xpreprocessor|-u|-T|-z|-D|-U|--param|-target|-l)
		skip_next=yes ;;
	-) inputs=$((inputs + 1)) ;;	# source on standard input
	-*) ;;
	*) inputs=$((inputs + 1)) ;;
	esac
done

if [ "$patchable" = yes ] && [ "$family" = gcc ]; then
	echo "fdr-cc --patchable: needs clang (GCC's -fpatchable-function-entry=5 writes five 1-byte nops, which cannot be patched while threads run); drop --gcc or FDR_CC=gcc" >&2
	exit 2
fi
if [ -z "$compiler" ]; then
	if [ "$family" = gcc ]; then compiler=gcc; else compiler=clang-19; fi
fi
if [ "$lang" = c++ ]; then
	case $compiler in
	*clang++*|*g++*) ;;
	*clang*) compiler=$(echo "$compiler" | sed 's/clang/clang++/') ;;
	*gcc*) compiler=$(echo "$compiler" | sed 's/gcc/g++/') ;;
	esac
fi

# FDR_LIBDIR: one directory holding all the archives below (an installed
# tree); make install writes its LIBDIR into installed_libdir.
installed_libdir=
adapters=${FDR_LIBDIR:-${installed_libdir:-$top/adapters}}
lib=${FDR_LIBDIR:-${installed_libdir:-$top/lib}}
static=no
for a in "$@"; do [ "$a" = -static ] && static=yes; done
# The frames a longjmp() jumps over, or a C++ exception unwinds, get their
# Exit in the log (userspace/adapters/unwind_frames.h): the program's
# calls reach fdr's hooks first.
unwind="-Wl,--wrap=longjmp,--wrap=_longjmp,--wrap=siglongjmp,--wrap=__longjmp_chk"
# A dynamic program's dlopen() and dlclose() (XRay and --gcc): what they
# load gets its sleds patched and, with --nest-libcall, its GOT hooked;
# the wrappers are linked even when only a library calls dlopen(): under
# --nest-libcall its hooked GOT entries lead there too (dl_lib.c).
dso=
[ "$static" = no ] && dso="-Wl,--wrap=dlopen,--wrap=dlclose -Wl,--undefined=fdr__dl_lib_dlopen"
if [ "$family" = gcc ]; then
	# GCC calls the exit hook on unwind itself; a function kept in one
	# piece (no .cold part) is known by its start when longjmp() skips it.
	instr="-finstrument-functions -fno-reorder-blocks-and-partition"
	libs="$unwind $adapters/libfdr-cyg.a $lib/libfdr.a -lpthread"
	# shared libraries loaded later call the program's hooks: export
	# them; with --nest-libcall their GOTs get hooked (dl_lib.c)
	[ "$static" = no ] && libs="$dso $libs -Wl,--export-dynamic-symbol=__cyg_profile_func_enter -Wl,--export-dynamic-symbol=__cyg_profile_func_exit"
	# a throw through a hooked library call (fdr record's library-call
	# tracing) gives the calls their return addresses back first: the
	# unwinder's entry points interposed, exported (plt_unwind.c)
	if [ "$lang" = c++ ] && [ "$static" = no ]; then
		libs="-Wl,--whole-archive $adapters/libfdr-patchable-cxx.a -Wl,--no-whole-archive $libs"
		for s in _Unwind_RaiseException __cxa_begin_catch __cxa_rethrow; do
			libs="$libs -Wl,--export-dynamic-symbol=$s"
		done
	fi
elif [ "$patchable" = yes ]; then
	if [ "$lang" = c++ ] && [ "$static" = yes ] && [ "$link" = yes ]; then
		echo "fdr-c++ --patchable: a static C++ program cannot be linked: a throw through a patched frame needs fdr's interposers of the unwinder's entry points, which only a dynamic link can have; link it dynamically, or drop --patchable (XRay)" >&2
		exit 2
	fi
	# returns are caught on a shadow stack (longjmp needs no wrap); a C++
	# throw gives the frames their return addresses back first: the
	# program interposes libgcc's and libstdc++'s entry points (exported)
	instr="-fpatchable-function-entry=5"
	cxx=
	if [ "$lang" = c++ ] && [ "$static" = no ]; then
		cxx="-Wl,--whole-archive $adapters/libfdr-patchable-cxx.a -Wl,--no-whole-archive"
		for s in _Unwind_RaiseException __cxa_begin_catch __cxa_rethrow; do
			cxx="$cxx -Wl,--export-dynamic-symbol=$s"
		done
	fi
	libs="-Wl,--undefined=fdr_patchable_mode_link $cxx $adapters/libfdr-patchable.a $lib/libfdr.a -lpthread"
else
	instr="-fxray-instrument -fxray-instruction-threshold=1"
	cxx=
	if [ "$lang" = c++ ] && [ "$static" = yes ]; then
		# --wrap also reroutes libstdc++.a's own throws
		cxx="-Wl,--wrap=__cxa_throw,--wrap=__cxa_rethrow,--wrap=__cxa_begin_catch,--wrap=__gxx_personality_v0"
	elif [ "$lang" = c++ ]; then
		# libstdc++.so throws through its PLT: interpose, exported
		cxx="-Wl,--wrap=__cxa_begin_catch,--wrap=__gxx_personality_v0 -Wl,--undefined=fdr_xray_cxx_link $adapters/libfdr-xray-cxx.a -Wl,--export-dynamic-symbol=__cxa_throw -Wl,--export-dynamic-symbol=__cxa_rethrow"
	fi
	libs="$unwind $dso -Wl,--undefined=fdr_xray_mode_link $cxx $adapters/libfdr-xray-objs.a $lib/libfdr.a -lpthread"
	# the first .preinit_array entry: the mode starts before the program's
	# own .preinit_array functions, which are then recorded (xray_preinit.c)
	first="-Wl,--whole-archive $adapters/libfdr-xray-preinit.a -Wl,--no-whole-archive"
fi
for f in $libs $first; do
	case $f in
	/*) [ -f "$f" ] || { echo "fdr-cc: $f is missing (run make in the fdr tree, or set FDR_LIBDIR)" >&2; exit 1; } ;;
	esac
done

# Pass 2: drop --gcc, keep the rest as given.
n=$#
while [ "$n" -gt 0 ]; do
	a=$1; shift; n=$((n - 1))
	[ "$a" = --gcc ] || [ "$a" = --patchable ] || set -- "$@" "$a"
done

if [ "$link" = yes ] && [ "$inputs" -gt 0 ]; then
	# shellcheck disable=SC2086 # the flag and library lists split on spaces
	# -x none: a "-x c" of the user's must not make our archives C source
	exec "$compiler" $instr $first "$@" -x none $libs
fi
# shellcheck disable=SC2086
exec "$compiler" $instr "$@"
