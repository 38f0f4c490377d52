/* SPDX-License-Identifier: MIT */
/*
 * yaml_scalar.h - print a string as LLVM's YAML writer (llvm::yaml::Output)
 * prints a std::string: plain when safe, else 'single' or "double" quoted
 * by the same rules (needsQuotes, yaml::escape).
 */
#ifndef FDRLOG_YAML_SCALAR_H
#define FDRLOG_YAML_SCALAR_H

#include "out_buffer.h"

enum yaml_quoting { YAML_PLAIN, YAML_SINGLE, YAML_DOUBLE };

enum yaml_quoting yaml_needs_quotes(const unsigned char *s, size_t n);
void yaml_scalar(struct out_buffer *o, const void *s, size_t n);

#endif
