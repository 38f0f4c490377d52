/* SPDX-License-Identifier: MIT */
/*
 * xray_names.h - XRay's function id -> name table, read from the output
 * of `llvm-xray-19 extract --symbolize BINARY` (one YAML flow mapping per
 * sled: "- { id: 1, address: ..., function-name: leaf_add, ... }").
 */
#ifndef ADAPTERS_XRAY_NAMES_H
#define ADAPTERS_XRAY_NAMES_H

#include <stdbool.h>
#include <stdint.h>

#define XRAY_NAMES_MAX	256

struct xray_names {
	char name[XRAY_NAMES_MAX][64];	/* by id; "" if unknown */
};

int xray_names_load(struct xray_names *n, const char *path);
bool xray_name_known(const struct xray_names *n, uint32_t id);
/* The name, or "#id" (as llvm-xray prints unknown ids). */
const char *xray_name(const struct xray_names *n, uint32_t id);

#endif /* ADAPTERS_XRAY_NAMES_H */
