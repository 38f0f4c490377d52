// SPDX-License-Identifier: MIT
/*
 * xray_config_test.c - the "fdr" mode's config string and the xray_mode
 * lookup in XRAY_OPTIONS: values, quoting, separators, and the error
 * sentences a user sees.
 */
#include <string.h>

#include "tap.h"
#include "xray_config.h"
#include "xray_options.h"

static int parse(struct fdr_xray_config *cfg, const char *text, char *err)
{
	err[0] = '\0';
	return fdr__xray_config_parse(cfg, text, strlen(text), err, 160);
}

static void test_config(void)
{
	struct fdr_xray_config cfg;
	char err[160];

	tap_ok(parse(&cfg, "", err) == 0 && !cfg.has_threshold && !cfg.target[0],
	       "config: empty string sets nothing");
	tap_ok(parse(&cfg, "func_duration_threshold_us=7", err) == 0 &&
	       cfg.has_threshold && cfg.threshold_us == 7,
	       "config: func_duration_threshold_us=7");
	tap_ok(parse(&cfg, "func_duration_threshold_us=0:target='embedded:a b'", err) == 0 &&
	       cfg.threshold_us == 0 && strcmp(cfg.target, "embedded:a b") == 0,
	       "config: ':' separates items, a quoted value keeps ':' and spaces");
	tap_ok(parse(&cfg, " target=\"embedded:q\" , func_duration_threshold_us=3 ", err) == 0 &&
	       cfg.threshold_us == 3 && strcmp(cfg.target, "embedded:q") == 0,
	       "config: double quotes, ',' and spaces");
	tap_ok(parse(&cfg, "buffer_size=16384:buffer_max=10:grace_period_ms=1", err) == 0 &&
	       !cfg.has_threshold,
	       "config: xray-fdr's buffer keys are accepted and ignored");
	tap_ok(parse(&cfg, "func_duration_threshold_us=-1", err) == -22 &&
	       strstr(err, "func_duration_threshold_us='-1'"),
	       "config: negative threshold rejected, value named: %s", err);
	tap_ok(parse(&cfg, "func_duration_threshold_us=99999999999999999999999", err) == -22,
	       "config: overflowing threshold rejected");
	tap_ok(parse(&cfg, "func_duration_threshold_us=", err) == -22,
	       "config: empty threshold rejected");
	tap_ok(parse(&cfg, "verbose", err) == -22 &&
	       strstr(err, "'verbose' is not of the form key=value"),
	       "config: item without '=' rejected: %s", err);
	tap_ok(parse(&cfg, "func_duration_threshold_us=1:colour=blue", err) == -22 &&
	       strstr(err, "unknown key 'colour'"),
	       "config: unknown key rejected and named: %s", err);
	tap_ok(fdr__xray_config_parse(&cfg, "func_duration_threshold_us=12XYZ", 29,
				     err, sizeof(err)) == 0 && cfg.threshold_us == 12,
	       "config: only len bytes are read (init_mode_bin)");
	tap_ok(fdr__xray_config_parse(&cfg, NULL, 0, err, sizeof(err)) == 0,
	       "config: NULL config is empty");
}

static bool options_mode(const char *options, char *mode, size_t size)
{
	return fdr__xray_options_get(options, "xray_mode", mode, size);
}

static void test_options(void)
{
	char mode[8];

	tap_ok(options_mode("patch_premain=true xray_mode=fdr", mode, sizeof(mode)) &&
	       strcmp(mode, "fdr") == 0, "XRAY_OPTIONS: xray_mode=fdr found");
	tap_ok(options_mode("xray_mode=xray-fdr:xray_mode=fdr", mode, sizeof(mode)) &&
	       strcmp(mode, "fdr") == 0, "XRAY_OPTIONS: the last xray_mode wins");
	tap_ok(options_mode("xray_mode='fdr',verbosity=1", mode, sizeof(mode)) &&
	       strcmp(mode, "fdr") == 0, "XRAY_OPTIONS: quoted value");
	tap_ok(!options_mode("patch_premain=true xray_modex=fdr bogus", mode, sizeof(mode)),
	       "XRAY_OPTIONS: no xray_mode item, no mode");
	tap_ok(!options_mode(NULL, mode, sizeof(mode)),
	       "XRAY_OPTIONS: unset");
	tap_ok(options_mode("xray_mode=a-very-long-mode", mode, sizeof(mode)) &&
	       strcmp(mode, "a-very-") == 0, "XRAY_OPTIONS: long value truncated to the buffer");
	tap_ok(fdr__xray_options_get("xray_mode=fdr patch_premain=1", "patch_premain",
				    mode, sizeof(mode)) && fdr__xray_option_is_true(mode) &&
	       !fdr__xray_option_is_true("false") && !fdr__xray_option_is_true("0"),
	       "XRAY_OPTIONS: patch_premain=1 is true, false and 0 are not");
}

int main(void)
{
	tap_plan(19);
	test_config();
	test_options();
	return tap_done();
}
