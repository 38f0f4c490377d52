# Shared settings for every userspace Makefile.  Include it first:
#   include ../common.mk        (from userspace/<dir>/)
# Outputs go to $(BUILD)/<dir>/, never into the source tree.
#   make SAN=1   ASan+UBSan build in build-san/ (clang)
#   make TSAN=1  TSan build in build-tsan/ (clang)

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)

ifeq ($(SAN),1)
CC := clang
BUILD ?= $(TOP)/build-san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else ifeq ($(TSAN),1)
CC := clang
BUILD ?= $(TOP)/build-tsan
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
else
BUILD ?= $(TOP)/build
SANFLAGS :=
endif

CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE $(SANFLAGS) \
	  -I$(TOP)/uapi -I$(TOP)/userspace/include \
	  -I$(TOP)/userspace/internal -MMD -MP
LDFLAGS += $(SANFLAGS)

# The release, one place for all (libfdr's soname, fdr.pc, the DKMS tree,
# the packages): the file VERSION at the top.
FDR_VERSION := $(shell cat $(TOP)/VERSION)
FDR_SOVERSION := $(firstword $(subst ., ,$(FDR_VERSION)))

# Public outputs every component can link against.
LIBFDR_A := $(BUILD)/lib/libfdr.a
LIBFDRREAD_A := $(BUILD)/reader/libfdrread.a
BINDIR := $(BUILD)/bin

# The TAP printer every C test program builds in (userspace/testing/):
# compile tests with -I$(TAP_DIR) and link $(TAP_C).
TAP_DIR := $(TOP)/userspace/testing
TAP_C := $(TAP_DIR)/tap.c
