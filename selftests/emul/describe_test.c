// SPDX-License-Identifier: GPL-2.0
/*
 * Everything describes itself: the policies' knobs (policy/param.h), the
 * SIMT strategies' and flush names (gpu/strategy.c) and the presets'
 * literal list are one table each, and what reads them (sysfs, netlink,
 * edge-sim) finds, checks and prints by the table alone.
 */
#include "cp_rig.h"
#include "fn/func.h"
#include "validate.h"

/* Every knob of the queue level: unique, a default within its range. */
TEST(cp_params_describe_themselves)
{
	u32 pol, i, n = 0, pol2, j;

	for (pol = 0; pol < EDGE_POL_NR; pol++) {
		const struct edge_cp_policy *cpp = edge_cp_policies[pol];

		EXPECT_TRUE(!cpp->nr_params || cpp->priv_size);
		for (i = 0; i < cpp->nr_params; i++) {
			const struct edge_param *p = &cpp->params[i];
			u32 found = ~0U;

			n++;
			EXPECT_LE(p->min, p->def);
			EXPECT_LE(p->def, p->max);
			EXPECT_NE(NULL, p->help);
			EXPECT_EQ(0, strncmp(p->range, p->name, strlen(p->name)));
			EXPECT_LE(p->off + (p->type == EDGE_PARAM_U64 ? 8 : 4),
				  cpp->priv_size);
			/* Unique: a sysfs file name and a netlink key. */
			EXPECT_EQ(p, edge_cp_param_find(p->name, &found));
			EXPECT_EQ(pol, found);
			for (pol2 = 0; pol2 < EDGE_TBP_NR; pol2++)
				for (j = 0; j < edge_tb_policies[pol2]->nr_params; j++)
					EXPECT_STRNE(p->name,
						     edge_tb_policies[pol2]->params[j].name);
		}
	}
	/* drv/sysfs_cp.c's static room for their files. */
	EXPECT_LE(n, (u32)EDGE_CP_PARAMS_MAX);
	EXPECT_GE(n, 2U);
	EXPECT_EQ(NULL, edge_cp_param_find("no_such_knob", NULL));
}

/*
 * Set by name, checked by the descriptor: an unknown name is -EINVAL,
 * a value past either limit -ERANGE, and then nothing changes; a knob
 * holds across a switch of policy.
 */
TEST(cp_param_set_checks_and_holds)
{
	const struct edge_param *p = NULL;
	u64 v;

	cp_init(_metadata, EDGE_POL_RR);
	ASSERT_EQ(0, edge_cp_param_get(C.cp, "prema_ns", &v));
	EXPECT_EQ(250000ULL, v);
	EXPECT_EQ(-EINVAL, edge_cp_param_set(C.cp, "prema_nss", 5000, &p));
	EXPECT_EQ(NULL, p);
	EXPECT_EQ(-EINVAL, edge_cp_param_get(C.cp, "prema_nss", &v));
	EXPECT_EQ(-ERANGE, edge_cp_param_set(C.cp, "prema_ns", 999, &p));
	ASSERT_NE(NULL, p);
	EXPECT_STREQ("prema_ns: from 1000 to 1000000000", p->range);
	EXPECT_EQ(-ERANGE, edge_cp_param_set(C.cp, "prema_ns", 1000000001ULL,
					     NULL));
	EXPECT_EQ(-ERANGE, edge_cp_param_set(C.cp, "predict_ns",
					     1ULL << 32, NULL));
	ASSERT_EQ(0, edge_cp_param_get(C.cp, "prema_ns", &v));
	EXPECT_EQ(250000ULL, v);
	EXPECT_EQ(0, edge_cp_param_set(C.cp, "prema_ns", 1000, NULL));
	EXPECT_EQ(0, edge_cp_param_set(C.cp, "predict_ns", 0, NULL));
	EXPECT_EQ(0, edge_cp_set_policy(C.cp, EDGE_POL_PREMA));
	EXPECT_EQ(0, edge_cp_set_policy(C.cp, EDGE_POL_BAY));
	ASSERT_EQ(0, edge_cp_param_get(C.cp, "prema_ns", &v));
	EXPECT_EQ(1000ULL, v);
	ASSERT_EQ(0, edge_cp_param_get(C.cp, "predict_ns", &v));
	EXPECT_EQ(0ULL, v);
	cp_fini();
}

/*
 * Baymax's knob reaches the CP through its descriptor alone: each
 * inspection waits predict_ns (the inspect_ns hook) before the launch.
 */
TEST(predict_ns_takes_effect)
{
	static const u64 predict[2] = { 0, 100000 };
	u16 k[1] = { 0 };
	int i;

	for (i = 0; i < 2; i++) {
		cp_init(_metadata, EDGE_POL_BAY);
		cp_class(_metadata, 0, 1, 10);
		ASSERT_EQ(0, edge_cp_param_set(C.cp, "predict_ns", predict[i],
					       NULL));
		ASSERT_EQ(0, cp_submit(0, 0, 1000000000ULL, 1, k));
		/* parse_ns 500 and host_ns 4000: 4.5 us without it. */
		cp_run(_metadata, 60000);
		EXPECT_EQ(i ? 0ULL : 1ULL, C.cp->st.kernels) TH_LOG("%d", i);
		cp_run(_metadata, 1000000000ULL);
		EXPECT_EQ(1ULL, C.cp->st.kernels);
		cp_all_accounted(_metadata, 1);
		cp_fini();
	}
}

/* The strategies' tables: every name found back, and no other. */
TEST(strategy_tables)
{
	u32 i;

	for (i = 0; i < EDGE_SCHED_NR; i++)
		EXPECT_EQ((int)i, edge_name_find(edge_sched_table, EDGE_SCHED_NR,
						 edge_sched_table[i].name));
	for (i = 0; i < EDGE_VICTIM_NR; i++)
		EXPECT_EQ((int)i, edge_name_find(edge_victim_table,
						 EDGE_VICTIM_NR,
						 edge_victim_table[i].name));
	EXPECT_EQ(-EINVAL, edge_name_find(edge_sched_table, EDGE_SCHED_NR,
					  "fastest"));
	EXPECT_STREQ("?", edge_name_of(edge_victim_table, EDGE_VICTIM_NR,
				       EDGE_VICTIM_NR));
	EXPECT_EQ((u32)EDGE_FLUSH_ALL, (1U << EDGE_FLUSH_NR) - 1);
}

/* One flush syntax: none, all, or names joined by '+'; each set back. */
TEST(flush_syntax)
{
	static const char *const bad[] = {
		"", "+", "boost+", "+boost", "boost,loads", "boost++loads",
		"Boost", "warp", "none+boost", "all+",
	};
	const char *at;
	char buf[64];
	u32 f, g;

	for (f = 0; f <= EDGE_FLUSH_ALL; f++) {
		edge_flush_format(f, buf, sizeof(buf));
		ASSERT_EQ(0, edge_flush_parse(buf, &g, NULL)) TH_LOG("%s", buf);
		EXPECT_EQ(f, g);
	}
	edge_flush_format(EDGE_FLUSH_BOOST | EDGE_FLUSH_LOADS, buf,
			  sizeof(buf));
	EXPECT_STREQ("boost+loads", buf);
	edge_flush_format(EDGE_FLUSH_ALL, buf, sizeof(buf));
	EXPECT_STREQ("all", buf);
	edge_flush_format(EDGE_FLUSH_IBUF | EDGE_FLUSH_BARRIER, buf, 6);
	EXPECT_STREQ("ibuf+", buf);		/* cut, still a string */
	for (f = 0; f < ARRAY_SIZE(bad); f++) {
		g = 7;
		EXPECT_EQ(-EINVAL, edge_flush_parse(bad[f], &g, &at))
			TH_LOG("'%s'", bad[f]);
		EXPECT_EQ(7U, g);
	}
	ASSERT_EQ(-EINVAL, edge_flush_parse("ibuf+warp", &g, &at));
	EXPECT_STREQ("warp", at);
}

/* The presets' literal (modinfo, netlink's message) is the table's. */
TEST(preset_names_literal)
{
	char buf[256] = "";
	const struct edge_preset *p;
	u32 i;

	for (i = 0; (p = edge_preset_at(i)); i++) {
		if (i)
			strcat(buf, ", ");
		strcat(buf, p->name);
	}
	EXPECT_STREQ(EDGE_PRESET_NAMES, buf);
	EXPECT_EQ(8U, i);
}

/*
 * The function table: every ABI id has an entry with its name, compute
 * and cost, no other id has one, and a function's own check (LPM4's
 * table) is what registration applies: one that reads no table refuses
 * one.
 */
TEST(function_table)
{
	struct edge_lpm_entry route = { .prefix_len = 0, .value = 7 };
	struct edge_validate_err err;
	struct edge_register r;
	struct edge_kdesc k;
	u32 i;

	EXPECT_EQ(NULL, edge_func_get(EDGE_FN_INVALID));
	EXPECT_EQ(NULL, edge_func_get(EDGE_FN_MAX + 1));
	for (i = 1; i <= EDGE_FN_MAX; i++) {
		const struct edge_fn_def *f = edge_func_get(i);

		ASSERT_NE(NULL, f);
		EXPECT_NE(NULL, f->name);
		EXPECT_NE(NULL, f->run);
		EXPECT_NE(NULL, f->cost);
		EXPECT_LE(f->param_size, 32U);
		EXPECT_EQ(!f->state_new, !f->state_free);
	}
	r = emul_reg_one_warp();
	r.func = EDGE_FN_LPM4;
	memset(&err, 0, sizeof(err));
	EXPECT_EQ(-EINVAL, edge_validate_register_why(edge_p(), &r, &k, &err));
	EXPECT_STREQ("table_len", err.field);
	r.table_ptr = (uintptr_t)&route;
	r.table_len = sizeof(route);
	EXPECT_EQ(0, edge_validate_register_why(edge_p(), &r, &k, &err));
	/* The modelled cost: the registration's, for every builtin. */
	EXPECT_EQ(r.warp_cycles, k.warp_cycles);
	r.table_len = sizeof(route) + 1;
	EXPECT_EQ(-EINVAL, edge_validate_register_why(edge_p(), &r, &k, &err));
	r.func = EDGE_FN_CRC32C;
	r.table_len = sizeof(route);
	memset(&err, 0, sizeof(err));
	EXPECT_EQ(-EINVAL, edge_validate_register_why(edge_p(), &r, &k, &err));
	EXPECT_STREQ("table_len", err.field);
	EXPECT_EQ(0ULL, err.limit);
}

TEST_HARNESS_MAIN
