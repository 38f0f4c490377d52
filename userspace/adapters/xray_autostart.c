// SPDX-License-Identifier: MIT
/*
 * xray_autostart.c - register the "fdr" mode, and start it when
 * XRAY_OPTIONS says xray_mode=fdr, so that an instrumented program records
 * with no source change.
 *
 * Ordering with LLVM 19's runtime: __xray_init runs from .preinit_array,
 * before any constructor, so the instrumentation map is loaded (and, with
 * patch_premain=true, the sleds patched) by the time this constructor
 * runs; handler setters work from then on.  The runtime itself never
 * selects a mode registered from outside (only its built-in modes look at
 * xray_mode) and never initializes a selected one, hence both steps here.
 * Calls into instrumented code before this constructor are not recorded:
 * no handler is installed yet.  XRAY_OPTIONS is read with fdr__env(): a
 * program run with an environment of its own finds fdr record's in the
 * inherited memfd (fdr_env.h), which XRay's runtime never reads, so the
 * sleds are patched here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/fdr.h>
#include "fdr_env.h"
#include "fdr_xray_ids.h"
#include "plt_hook.h"
#include "xray_abi.h"
#include "xray_args.h"
#include "xray_dso.h"
#include "xray_exec_id.h"
#include "xray_filter.h"
#include "xray_mode.h"
#include "xray_options.h"
#include "xray_sleds.h"
#include "xray_xstate.h"

/*
 * The archive member holding this constructor must be linked even though
 * nothing in the program refers to it: the libfdr-xray.a ld script says
 * EXTERN(fdr_xray_mode_link); with the bare archive, link with
 * -Wl,--undefined=fdr_xray_mode_link (Documentation/integrations.md).
 */
const char fdr_xray_mode_link[] = FDR_XRAY_MODE_NAME;

/* ... and so must fdr_attach_entry (attach_entry.c), which nothing calls
 * but `fdr record -p`, from outside. */
long fdr_attach_entry(const char *cmd);
__attribute__((used)) static long (*const keep_attach_entry)(const char *) =
	fdr_attach_entry;

/* Nobody else can have selected "fdr" yet (it was not registered):
 * only XRAY_OPTIONS can ask for it. */
__FDR_NO_INSTRUMENT static int mode_requested(void)
{
	char mode[32];

	return fdr__xray_options_get(fdr__env("XRAY_OPTIONS"), "xray_mode", mode,
				    sizeof(mode)) &&
	       strcmp(mode, FDR_XRAY_MODE_NAME) == 0;
}

/* With the sleds patched before main, point them at our trampolines;
 * without, say why nothing will be recorded until the program patches
 * them itself. */
__FDR_NO_INSTRUMENT static void use_patched_sleds(void)
{
	const char *only = secure_getenv("FDR_XRAY_FUNCTIONS");
	const char *args = secure_getenv("FDR_XRAY_ARGS");
	char value[16];
	int n;

	/* -F, -N, -A and -R name PROG's ids: another program's would be others */
	if (fdr__xray_main_claim() == 0 && fdr__xray_main_base) {
		only = NULL;
		args = NULL;
	}
	if (!fdr__xray_options_get(fdr__env("XRAY_OPTIONS"), "patch_premain", value,
				  sizeof(value)) || !fdr__xray_option_is_true(value)) {
		fprintf(stderr, "fdr xray mode: note: XRAY_OPTIONS has no "
			"patch_premain=true: nothing is recorded until the "
			"program calls __xray_patch()\n");
		return;
	}
	/* run with an environment of its own: XRay read no options, we did */
	if (!getenv("XRAY_OPTIONS") && __xray_patch() != FDR_XRAY_PATCH_SUCCESS)
		fprintf(stderr, "fdr xray mode: note: XRay refused to patch the sleds; "
			"nothing is recorded\n");
	n = fdr__xray_filter_apply(only);
	if (n == -EIO)
		fprintf(stderr, "fdr xray mode: note: XRay refused to (un)patch the "
			"functions of FDR_XRAY_FUNCTIONS; recording what is patched\n");
	/* before the retarget: it sends these functions' sleds elsewhere */
	if (fdr__xray_args_load(args))
		fprintf(stderr, "fdr xray mode: note: no arguments are recorded\n");
	n = fdr__xray_sleds_retarget();
	if (n < 0)	/* still correct, through compiler-rt's trampolines */
		fprintf(stderr, "fdr xray mode: note: cannot rewrite the sleds "
			"(%s); using XRay's slower trampolines\n", strerror(-n));
	/* shared libraries: sleds XRay never patches (xray_dso.h) */
	fdr__xray_dso_start(only && !strncmp(only, "only:", 5));
	/* library calls, when fdr record asks: last, so that the patching
	 * above makes none (plt_self.c) */
	fdr__plt_self_start(FDR_XRAY_LIBCALL_BIT, false);
}

__FDR_NO_INSTRUMENT static void start_mode(void)
{
	enum fdr_xray_log_register_status sel;
	enum fdr_xray_log_init_status st;

	sel = __xray_log_select_mode(FDR_XRAY_MODE_NAME);
	if (sel != FDR_XRAY_REGISTRATION_OK) {	/* registered above: unexpected */
		fprintf(stderr, "fdr xray mode: XRay refused to select mode '%s' "
			"(status %d)\n", FDR_XRAY_MODE_NAME, (int)sel);
		return;
	}
	/* "" lets $FDR_TARGET and $FDR_OPTIONS decide */
	st = __xray_log_init_mode(FDR_XRAY_MODE_NAME, "");
	if (st != FDR_XRAY_LOG_INITIALIZED) {	/* log_init said why */
		fprintf(stderr, "fdr xray mode: xray_mode=fdr did not start; the "
			"program runs without recording\n");
		return;
	}
	use_patched_sleds();
}

/*
 * Once: from fdr-cc's first .preinit_array entry (xray_preinit.c), else
 * from the constructor below.
 * The trampolines need the register-saving kind: decided here, as its own
 * constructor would only run later.
 */
__FDR_NO_INSTRUMENT void fdr__xray_autostart_once(void)
{
	static int done;
	enum fdr_xray_log_register_status reg;

	if (done++)
		return;
	fdr__xstate_init();
	reg = __xray_log_register_mode(FDR_XRAY_MODE_NAME, fdr__xray_mode_impl);
	if (reg != FDR_XRAY_REGISTRATION_OK) {
		fprintf(stderr, "fdr xray mode: cannot register mode '%s': %s\n",
			FDR_XRAY_MODE_NAME,
			reg == FDR_XRAY_DUPLICATE_MODE ? "the name is taken"
						       : "XRay refused the handlers");
		return;
	}
	if (mode_requested())
		start_mode();
}

/*
 * Priority 101, the first an application may use: before the program's own
 * constructors and C++ static initialisers, which are then recorded.  A
 * program fdr-cc linked has started already, from its .preinit_array
 * (xray_preinit.c), so that the program's own .preinit_array functions
 * are recorded too; linked by hand, it starts here.
 */
__attribute__((constructor(101))) __FDR_NO_INSTRUMENT static void fdr_xray_autostart(void)
{
	fdr__xray_autostart_once();
}
