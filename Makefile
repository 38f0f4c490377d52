# Top-level build of fdr.  (Kbuild, next to this file, is what the kernel's
# build system reads for the module; this Makefile drives everything.)
#
#   make / make all     fdr.ko (module) and all of userspace
#   make module         fdr.ko against $(KDIR), W=1, warnings are errors
#   make module-6.12    build check against Debian's 6.12 headers, in
#                       build/kmod-6.12/ (kmod/fdr.ko is left alone)
#   make module-6.1-rt  the same against the 6.1 PREEMPT_RT headers
#   make userspace      every userspace component and the selftests
#   make check          host tests of every component (TAP)
#   make test           deps, build, host tests, VM selftests, the full
#                       Debian guest test on 6.1 (packages, DKMS, systemd),
#                       one summary
#   make test-full      the same, the guest test on 6.1, 6.1-rt and 6.12
#                       and a kernel upgrade 6.1 -> 6.12
#   make guest-test     only the full Debian guest test (FDR_GUEST=...:
#                       scenarios, default 6.1; needs make first)
#   make vm-test        the busybox VM part alone (no deps, host tests or
#                       full guest test)
#   make demo           boot the VM, load fdr.ko, drive it with fdrctl
#   make vm CMD='...'   run a shell command in the VM with fdr.ko loaded
#   make bench          the benchmarks (bench/README.md)
#   make install        tools, libraries, headers, man pages, udev rule,
#                       systemd unit and the module's DKMS tree, under
#                       PREFIX (/usr/local) and DESTDIR; make uninstall
#                       removes exactly that (Documentation/install.md)
#   make deb            the Debian packages, in build/deb/
#   make clean          remove build outputs (keeps build/kselftest)
#   make distclean      remove all of build/, build-san/, build-tsan/
#
# Documentation/building.md and Documentation/testing.md explain more.

# The kernel the module is built for: the running one if its build tree is
# installed, else Debian's default kernel (scripts/default-kver).
KVER ?= $(shell scripts/default-kver)
KDIR ?= /lib/modules/$(KVER)/build

# Components, in build order: libraries before what links against them;
# test suites under tests/<name>/ last, picked up by their Makefile;
# scripts/tests tests the test infrastructure itself.
COMPONENT_DIRS := userspace/lib userspace/adapters userspace/reader \
	userspace/tools/fdrctl userspace/tools/fdrlog userspace/fdrd userspace/tools/fdr selftests \
	packaging $(patsubst %/Makefile,%,$(sort $(wildcard tests/*/Makefile))) \
	scripts/tests
# Only those that exist yet (parts land independently).
DIRS = $(patsubst %/Makefile,%,$(wildcard $(addsuffix /Makefile,$(COMPONENT_DIRS))))

.PHONY: all module module-6.12 module-6.1-rt userspace check test test-full guest-test vm-test demo vm bench install uninstall deb \
	print-dirs clean distclean

all: module userspace

module:
	+scripts/build-module.sh "$(KDIR)"

module-6.12:
	+scripts/build-module-other.sh 6.12

module-6.1-rt:
	scripts/build-module-other.sh 6.1-rt

# Each component is a target, so `make -j` builds independent ones at
# once.  A component comes after every one its own make calls into
# ($(MAKE) -C ...): that call then finds the other directory built and
# does nothing, and no two makes ever build in one directory at the same
# time.  Test suites (tests/*/) come after all of userspace/.
USERSPACE_DIRS = $(filter userspace/%,$(DIRS))
.PHONY: $(DIRS)
userspace: $(DIRS)
$(DIRS):
	+$(MAKE) -C $@

userspace/adapters userspace/tools/fdrctl: userspace/lib
userspace/tools/fdrlog: userspace/reader
userspace/fdrd: userspace/lib userspace/reader userspace/tools/fdrctl userspace/tools/fdrlog
userspace/tools/fdr: userspace/fdrd userspace/reader userspace/lib userspace/adapters userspace/tools/fdrlog
$(filter tests/%,$(DIRS)): $(USERSPACE_DIRS)

# The tests run one component after another, whatever -j says: their
# TAP stays in order and timing tests do not share the CPUs.
check: userspace
	@set -e; for d in $(DIRS); do $(MAKE) -C $$d check; done

test:
	scripts/run-tests.sh

test-full:
	FDR_GUEST="6.1 6.1-rt 6.12 upgrade" scripts/run-tests.sh

# The guest test alone, results in build/results/4-guest*.tap.
guest-test:
	scripts/guest/test $(or $(FDR_GUEST),6.1)

# The VM part of `make test` alone (no deps, no host tests, no full guest
# test unless FDR_GUEST says which): for iterating on the module and the VM
# tests.
vm-test:
	FDR_SKIP_DEPS=1 FDR_SKIP_HOST=1 FDR_GUEST=$${FDR_GUEST:-none} scripts/run-tests.sh

demo:
	scripts/demo.sh

vm: module
	$(if $(CMD),,@echo "usage: make vm CMD='shell command'" >&2; exit 2)
	scripts/vm/run --ko kmod/fdr.ko -- '$(subst ','\'',$(CMD))'

bench:
	$(MAKE) -C bench

# Where make install puts things; packaging/install.sh reads them.
PREFIX ?= /usr/local
INSTALL_VARS := DESTDIR PREFIX BINDIR LIBDIR INCLUDEDIR DATADIR MANDIR SYSCONFDIR \
	UDEVRULESDIR SYSTEMDUNITDIR SYSUSERSDIR MODULESLOADDIR DKMSDIR
# Given to install.sh only: the components' own BINDIR is the build's.
INSTALL_ENV = $(foreach v,$(INSTALL_VARS),$(if $(value $v),$v='$($v)'))

# The module is not installed as a .ko: DKMS builds it for each kernel.
install: userspace
	$(INSTALL_ENV) packaging/install.sh install

uninstall:
	$(INSTALL_ENV) packaging/install.sh uninstall

deb:
	packaging/deb/build.sh

# For scripts/run-tests.sh: the component directories, in build order.
print-dirs:
	@echo $(DIRS)

clean:
	@for d in $(DIRS); do $(MAKE) -C $$d clean || exit 1; done
	-@test ! -f Kbuild || test ! -f "$(KDIR)/Makefile" || $(MAKE) -C "$(KDIR)" M=$(CURDIR) clean >/dev/null
	find build -mindepth 1 -maxdepth 1 ! -name kselftest -exec rm -rf {} + 2>/dev/null || true
	rm -rf build-san build-tsan

distclean: clean
	rm -rf build
