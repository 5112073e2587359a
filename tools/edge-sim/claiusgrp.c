// SPDX-License-Identifier: GPL-2.0
/*
 * edge-sim claius groups: two services beside copies of one batch
 * application, the 15 groups of C-Laius Section 9.5, and the static
 * optimum they are compared with (Documentation/edge-sim.rst).
 */
#include <stdio.h>

#include "claiusim.h"

/* A group's run: its two services' p99 over target, batch utilisation. */
struct gres {
	double r1, r2, util;
	u32 viol, q1, q2;
};

static void group_run(const u32 *ids, u32 policy, u64 gap, u64 t1, u64 t2,
		      u32 bid, struct gres *res)
{
	struct outcome o;
	double rate = 0;
	u32 i;

	claius_run(ids, cl_g.ninst + 2, policy, gap, false, &o);
	for (i = 3; i <= cl_g.ninst + 2; i++)
		rate += o.rate[i];
	res->r1 = (double)o.p99[1] / (double)t1;
	res->r2 = (double)o.p99[2] / (double)t2;
	res->viol = (o.p99[1] > t1) + (o.p99[2] > t2);
	res->util = 100.0 * rate * 1e6 * cl_g.ninst /
		    (double)cl_g.app[bid].alone_rate / 2;
}

/*
 * The smallest quota step at which service @id's largest queries fit its
 * target alone (transfer included): below it, the first such query
 * misses however the rest is shared, as contention only adds time (up to
 * the TBs' drawn spread: -F runs without the floor, to check).
 */
static u32 floor_q(u32 id, u64 target)
{
	const struct capp *a = &cl_g.app[id];
	u32 q, t;

	for (q = 1; q < EDGE_QUOTA_STEPS; q++) {
		u64 sum = a->pcie_ns;

		for (t = 0; t < a->n; t++)
			sum += a->prof[SIZES - 1][t].ns[q - 1];
		if (sum <= target)
			return q;
	}
	return EDGE_QUOTA_STEPS;
}

/*
 * The static optimum (Section 3.6: "enumerating all possible percentage
 * situations, and running the program with different percentage
 * configuration situations. Then we identify the least number of QoS
 * violations"): the splits of 10 % steps between the two services, the
 * batch application on the rest, run on the same arrivals; the best is
 * the fewest services violating, then the most left to batch, then the
 * smallest worst p99 / target.  Splits are tried by what they leave to
 * batch, most first, and the search stops after the first level at which
 * one violates nothing: no later split can beat it.  Splits that give a
 * service less than floor_q() are skipped, unless the two floors do not
 * fit together (then all are run), or -F.  Returns the runs.
 */
static u32 static_opt(const u32 *ids, u32 policy, u64 gap, u64 t1, u64 t2,
		      u32 bid, struct gres *best)
{
	u32 sum, q1, runs = 0, f1 = 1, f2 = 1;
	bool have = false, quick = !cl_g.full;
	struct gres r;

	if (quick) {
		f1 = floor_q(ids[0], t1);
		f2 = floor_q(ids[1], t2);
		if (f1 + f2 > EDGE_QUOTA_STEPS)
			f1 = f2 = 1;
	}
again:
	/*
	 * Quick: a run ends at the first query that makes a service miss;
	 * it only has to tell a split that violates from one that does not.
	 */
	cl_g.stop_over[1] = quick ? t1 : 0;
	cl_g.stop_over[2] = quick ? t2 : 0;
	for (sum = f1 + f2; sum <= EDGE_QUOTA_STEPS; sum++) {
		for (q1 = f1; q1 + f2 <= sum; q1++) {
			cl_g.fixq[1] = q1 * 10;
			cl_g.fixq[2] = (sum - q1) * 10;
			group_run(ids, policy, gap, t1, t2, bid, &r);
			runs++;
			r.q1 = q1 * 10;
			r.q2 = (sum - q1) * 10;
			if (!have || r.viol < best->viol ||
			    (r.viol == best->viol && sum == (best->q1 + best->q2) / 10 &&
			     (r.r1 > r.r2 ? r.r1 : r.r2) <
			     (best->r1 > best->r2 ? best->r1 : best->r2))) {
				*best = r;
				have = true;
			}
		}
		if (!best->viol)
			break;
	}
	/* Every split violates: how many services it fails needs them all. */
	if (best->viol && quick) {
		quick = false;
		have = false;
		f1 = f2 = 1;
		goto again;
	}
	cl_g.stop_over[1] = 0;
	cl_g.stop_over[2] = 0;
	cl_g.fixq[1] = 0;
	cl_g.fixq[2] = 0;
	return runs;
}

/* Two services beside two instances of one batch app: the 15 groups. */
void claius_groups(const u32 *pol, u32 np, const char *bats)
{
	u32 s1, s2, b, i, j, ids[MAX_INST], sopt, runs = 0;
	struct gres res;

	for (b = 0; b < cl_g.nr && (cl_g.app[b].qos || !claius_selected(bats, cl_g.app[b].name)); b++)
		;
	if (b == cl_g.nr)
		claius_die("no batch application");
	claius_measure(b);
	sopt = (u32)edge_tb_policy_find("static-opt");
	printf("service1,service2,batch,policy,p99_per_target1,p99_per_target2,violated,util_pct,quota_pct1,quota_pct2,"
	       SIM_PROV_COLS "\n");
	for (s1 = 0; s1 < cl_g.nr; s1++) {
		for (s2 = s1 + 1; s2 < cl_g.nr; s2++) {
			u64 t1, t2, gap;

			if (!cl_g.app[s1].qos || !cl_g.app[s2].qos)
				continue;
			claius_measure(s1);
			claius_measure(s2);
			t1 = cl_g.app[s1].alone_p99 * cl_g.mult_pct / 100;
			t2 = cl_g.app[s2].alone_p99 * cl_g.mult_pct / 100;
			ids[0] = s1;
			ids[1] = s2;
			for (i = 2; i < 2 + cl_g.ninst; i++)
				ids[i] = b;
			/* Each service at its own rate; the longer gap drives both. */
			gap = claius_gap_ns(&cl_g.app[s1]) > claius_gap_ns(&cl_g.app[s2]) ?
			      claius_gap_ns(&cl_g.app[s1]) : claius_gap_ns(&cl_g.app[s2]);
			for (j = 0; j < np; j++) {
				if (pol[j] == sopt) {
					runs += static_opt(ids, pol[j], gap, t1, t2, b, &res);
				} else {
					group_run(ids, pol[j], gap, t1, t2, b, &res);
					res.q1 = 0;
					res.q2 = 0;
				}
				printf("%s,%s,%s,%s,%.3f,%.3f,%d,%.1f,%u,%u",
				       cl_g.app[s1].name, cl_g.app[s2].name,
				       cl_g.app[b].name, edge_tb_policy_name(pol[j]),
				       res.r1, res.r2, res.viol > 0, res.util,
				       res.q1, res.q2);
				claius_prov(pol[j]);
			}
		}
	}
	fprintf(stderr, "claius_static_runs=%u\n", runs);
}
