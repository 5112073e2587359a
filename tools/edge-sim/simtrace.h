/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edge-sim's timeline (simtrace.c): a Chrome JSON trace of one run.
 */
#ifndef _EDGE_SIMTRACE_H
#define _EDGE_SIMTRACE_H

#include "edge_compat.h"

struct edge_engine;

/* Writes a kernel's name, from its launch cookie, into @buf. */
typedef void (*simtrace_name_fn)(u64 cookie, char *buf, size_t len);

int simtrace_open(const char *path, simtrace_name_fn name);
/* Only @eng's trace points are written, between start and stop. */
void simtrace_start(const struct edge_engine *eng);
void simtrace_stop(void);
/* A kernel from its launch to its completion, ns. */
void simtrace_kernel(const char *name, u64 id, u64 launch, u64 end);
int simtrace_close(void);

#endif /* _EDGE_SIMTRACE_H */
