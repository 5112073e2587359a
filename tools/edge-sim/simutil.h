/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What edge-sim's subcommands share (simutil.c): dying with the
 * subcommand's name, and reading a number.
 */
#ifndef _EDGE_SIMUTIL_H
#define _EDGE_SIMUTIL_H

#include "edge_compat.h"

/* "WHO: message" on stderr, exit(2); printf's format checks every caller. */
void sim_die(const char *who, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

/* All of @v a number in @base, with at most one suffix of @sfx ("kKM"). */
bool sim_num(const char *v, int base, const char *sfx, u64 *x);

#endif /* _EDGE_SIMUTIL_H */
