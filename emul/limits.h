/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Limits of the emulated front end that do not depend on the preset.
 */
#ifndef _EDGE_LIMITS_H
#define _EDGE_LIMITS_H

/* EDGE sizes its EKT at 32; its gem5 artifact at 64.  We take 64. */
#define EDGE_EKT_ENTRIES	64
#define EDGE_MAX_RING_ENTRIES	4096
#define EDGE_MAX_PARAM_SIZE	4096
#define EDGE_MAX_RING_BYTES	(4U << 20)
#define EDGE_MAX_GRID_X		0x7fffffffU
#define EDGE_MAX_GRID_YZ	65535U
/* Keeps cycles * 1e6 / clock_khz inside 64 bits. */
#define EDGE_MAX_WARP_CYCLES	0x10000000000ULL	/* 2^40 */

/* An event deadline beyond 1000 s is a unit error. */
#define EDGE_MAX_DEADLINE_NS	1000000000000ULL

/* A stall longer than 10 M cycles is a description error, not a GPU. */
#define EDGE_MAX_STALL_CYCLES	10000000U

#endif /* _EDGE_LIMITS_H */
