// SPDX-License-Identifier: GPL-2.0
/*
 * The model's random numbers (emul/rng.c) and latency statistics
 * (emul/stats.c): bounds, means and spreads against what each
 * distribution promises, and determinism.
 */
#include "emul_test.h"
#include "rng.h"
#include "stats.h"

#define N	20000U

TEST(rng_deterministic)
{
	struct edge_rng a, b, c;
	u32 i, diff = 0;

	edge_rng_seed(&a, 42);
	edge_rng_seed(&b, 42);
	edge_rng_seed(&c, 43);
	for (i = 0; i < 1000; i++) {
		u64 x = edge_rng_next(&a);

		ASSERT_EQ(x, edge_rng_next(&b));
		diff += x != edge_rng_next(&c);
	}
	EXPECT_EQ(1000U, diff);
	/* Reseeding starts the sequence over. */
	edge_rng_seed(&a, 42);
	edge_rng_seed(&b, 42);
	EXPECT_EQ(edge_rng_next(&b), edge_rng_next(&a));
}

TEST(rng_below_and_permille)
{
	static u32 hist[10];
	struct edge_rng r;
	u32 i, yes = 0;

	edge_rng_seed(&r, 1);
	for (i = 0; i < N; i++) {
		u32 v = edge_rng_below(&r, 10);

		ASSERT_LT(v, 10U);
		hist[v]++;
		ASSERT_EQ(0U, edge_rng_below(&r, 1));
		ASSERT_FALSE(edge_rng_permille(&r, 0));
		ASSERT_TRUE(edge_rng_permille(&r, 1000));
		yes += edge_rng_permille(&r, 250);
	}
	/* 2000 expected per value, sd ~42. */
	for (i = 0; i < 10; i++)
		EXPECT_TRUE(hist[i] > 1800 && hist[i] < 2200) TH_LOG("%u: %u", i,
								      hist[i]);
	/* 5000 expected, sd ~61. */
	EXPECT_GT(yes, 4700U);
	EXPECT_LT(yes, 5300U);
}

/* Square root by Newton's method: no libm to link. */
static double sqrt_d(double x)
{
	double r = x > 1 ? x : 1;
	int i;

	if (x <= 0)
		return 0;
	for (i = 0; i < 200; i++)
		r = (r + x / r) / 2;
	return r;
}

static double fabs_d(double x)
{
	return x < 0 ? -x : x;
}

/* Mean and variance of n samples, in doubles (the host has them). */
struct moments {
	double mean;
	double sd;
	u64 min;
	u64 max;
};

static struct moments moments_of(const u64 *v, u32 n)
{
	struct moments m = { 0, 0, ~0ULL, 0 };
	double s = 0, s2 = 0;
	u32 i;

	for (i = 0; i < n; i++) {
		s += (double)v[i];
		if (v[i] < m.min)
			m.min = v[i];
		if (v[i] > m.max)
			m.max = v[i];
	}
	m.mean = s / n;
	for (i = 0; i < n; i++)
		s2 += ((double)v[i] - m.mean) * ((double)v[i] - m.mean);
	m.sd = sqrt_d(s2 / n);
	return m;
}

static u64 samples[N];

TEST(rng_spread)
{
	static const struct {
		u64 mean;
		u32 rsd;
	} c[] = {
		{ 1000, 10 }, { 1000, 30 }, { 2300, 20 }, { 1ULL << 40, 5 },
		{ 100, 100 },
	};
	struct edge_rng r;
	struct moments m;
	u32 i, j;

	edge_rng_seed(&r, 7);
	/* No spread: the mean itself, and never 0. */
	EXPECT_EQ(1234ULL, edge_rng_spread(&r, 1234, 0));
	EXPECT_EQ(1ULL, edge_rng_spread(&r, 0, 0));
	EXPECT_EQ(1ULL, edge_rng_spread(&r, 0, 50));
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		double sd = (double)c[i].mean * c[i].rsd / 100;
		/* Irwin-Hall of four: at most 2^17 / 37837 sd away. */
		double reach = sd * (131072.0 / 37837) + 1;

		for (j = 0; j < N; j++) {
			samples[j] = edge_rng_spread(&r, c[i].mean, c[i].rsd);
			ASSERT_GE(samples[j], 1ULL);
		}
		m = moments_of(samples, N);
		EXPECT_LE(m.max, (u64)(c[i].mean + reach)) TH_LOG("case %u", i);
		if (c[i].rsd < 30) {
			EXPECT_GE(m.min, (u64)(c[i].mean - reach))
				TH_LOG("case %u", i);
			/* The mean within 5 standard errors. */
			EXPECT_LT(fabs_d(m.mean - c[i].mean),
				  5 * sd / sqrt_d(N)) TH_LOG("case %u", i);
			EXPECT_LT(fabs_d(m.sd - sd), 0.05 * sd)
				TH_LOG("case %u: sd %f, want %f", i, m.sd, sd);
		} else {
			/* Clamped at 1: the mean only moves up. */
			EXPECT_GT(m.mean, c[i].mean - 5 * sd / sqrt_d(N));
		}
	}
}

/*
 * The right-skewed TB draw keeps its mean and deviation (where the
 * symmetric one clipped at 1 moves its mean), never goes below its shift,
 * and has a long right tail: RayTracing's 66 % reaches about 4.5x.
 */
TEST(rng_skewed)
{
	static const struct {
		u64 mean;
		u32 rsd;
	} c[] = {
		{ 15167, 66 }, { 5238, 30 }, { 1000000, 8 }, { 1000, 90 },
		{ 1000, 100 },
	};
	struct edge_rng r;
	struct moments m;
	u32 i, j;

	edge_rng_seed(&r, 11);
	EXPECT_EQ(1234ULL, edge_rng_skewed(&r, 1234, 0));
	EXPECT_EQ(1ULL, edge_rng_skewed(&r, 0, 50));
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		double sd = (double)c[i].mean * c[i].rsd / 100;

		for (j = 0; j < N; j++)
			samples[j] = edge_rng_skewed(&r, c[i].mean, c[i].rsd);
		m = moments_of(samples, N);
		EXPECT_LT(fabs_d(m.mean - c[i].mean), 5 * sd / sqrt_d(N))
			TH_LOG("case %u: mean %f", i, m.mean);
		EXPECT_LT(fabs_d(m.sd - sd), 0.05 * sd)
			TH_LOG("case %u: sd %f, want %f", i, m.sd, sd);
		/* Skewed right: the tail reaches further than the head. */
		EXPECT_GT(m.max - c[i].mean, 2 * (c[i].mean - m.min))
			TH_LOG("case %u", i);
	}
	/* The TB draw picks it only when asked. */
	edge_rng_seed(&r, 3);
	j = (u32)edge_rng_tb(&r, 1000, 30, false);
	edge_rng_seed(&r, 3);
	EXPECT_EQ((u64)j, edge_rng_spread(&r, 1000, 30));
}

/*
 * Inputs no validated kernel has, which the shared code must survive
 * without wrapping (UBSan here): a mean near 2^64 (an unvalidated ns
 * time, tb_ms=4000000000 overflowed the spread's s64 product) and a
 * deviation above 100 % (rsd=500 gave a skewed shift that wrapped to
 * ~4e18).  Each draw stays within [1, the mean's few times] or saturates.
 */
TEST(rng_hostile)
{
	static const u64 means[] = { 1ULL << 46, 1ULL << 50, 4000000000000000ULL,
				     1ULL << 62, 1ULL << 63, ~0ULL };
	struct edge_rng r;
	u32 i, j;

	edge_rng_seed(&r, 5);
	for (i = 0; i < ARRAY_SIZE(means); i++) {
		for (j = 0; j < 2000; j++) {
			u64 m = means[i];
			u64 v = edge_rng_spread(&r, m, 100);

			EXPECT_GE(v, 1ULL);
			/* Irwin-Hall's tail: at most ~3.5 sd above. */
			if (m < (1ULL << 61))
				EXPECT_LE(v, m * 5) TH_LOG("mean %llu", (unsigned long long)m);
			v = edge_rng_spread(&r, m, 0xffffffffU);
			EXPECT_GE(v, 1ULL);
			v = edge_rng_skewed(&r, m, 100);
			EXPECT_GE(v, 1ULL);
			v = edge_rng_exp(&r, m);
			(void)v;
		}
	}
	/* rsd above 100 is read as 100: never below the mean's shift of 0. */
	for (j = 0; j < 20000; j++) {
		u64 v = edge_rng_skewed(&r, 1000, 500);

		ASSERT_LT(v, 100000ULL) TH_LOG("skewed 1000 at 500 %%: %llu",
					       (unsigned long long)v);
	}
	/* Past the split (2^42), the exponential scales as below it. */
	for (j = 0; j < 100; j++) {
		struct edge_rng a, b;
		u64 lo, hi;

		edge_rng_seed(&a, j);
		edge_rng_seed(&b, j);
		lo = edge_rng_exp(&a, 1ULL << 41);
		hi = edge_rng_exp(&b, 1ULL << 43);
		EXPECT_LE(hi - 4 * lo, 3ULL);
	}
}

TEST(rng_uniform_mean)
{
	static const u64 means[] = { 0, 1, 3, 100, 5000, 1ULL << 30,
				     (1ULL << 40) + 12345 };
	static u32 seen[7];
	struct edge_rng r;
	struct moments m;
	u32 i, j;

	edge_rng_seed(&r, 3);
	for (i = 0; i < ARRAY_SIZE(means); i++) {
		u64 mean = means[i];
		/*
		 * Uniform on the n values 0, q, .., 2 mean (q = 1, or
		 * mean / 1024 for large means): sd = q sqrt((n^2 - 1) / 12).
		 */
		double q = mean < (1ULL << 30) ? 1 : (double)(mean / 1024);
		double n = mean < (1ULL << 30) ? 2.0 * mean + 1 : 2049;
		double sd = q * sqrt_d((n * n - 1) / 12);

		for (j = 0; j < N; j++) {
			samples[j] = edge_rng_uniform_mean(&r, mean);
			ASSERT_LE(samples[j], 2 * mean) TH_LOG("mean %llu",
				(unsigned long long)mean);
			if (mean == 3)
				seen[samples[j]]++;
			/* Large means step in mean / 1024. */
			if (mean >= (1ULL << 30))
				ASSERT_EQ(0ULL, samples[j] % (mean / 1024));
		}
		m = moments_of(samples, N);
		EXPECT_LE(fabs_d(m.mean - (double)mean),
			  5 * sd / sqrt_d(N) + 0.001 * mean + 1e-9)
			TH_LOG("mean %llu: %f", (unsigned long long)mean, m.mean);
		if (mean >= 3)
			EXPECT_LT(fabs_d(m.sd - sd), 0.03 * sd);
	}
	/* Every value of 0 .. 6 comes up, ends included. */
	for (i = 0; i < 7; i++)
		EXPECT_GT(seen[i], N / 7 / 2) TH_LOG("%u", i);
}

TEST(rng_exp)
{
	static const u64 means[] = { 1, 100, 2300, 1000000, 1ULL << 36 };
	struct edge_rng r;
	struct moments m;
	u32 i, j, over;

	edge_rng_seed(&r, 11);
	EXPECT_EQ(0ULL, edge_rng_exp(&r, 0));
	for (i = 1; i < ARRAY_SIZE(means); i++) {
		u64 mean = means[i];

		over = 0;
		for (j = 0; j < N; j++) {
			samples[j] = edge_rng_exp(&r, mean);
			/* u >= 2^-53: -ln u <= 53 ln 2 < 37. */
			ASSERT_LE(samples[j], 37 * mean);
			over += samples[j] > mean;
		}
		m = moments_of(samples, N);
		/* Exponential: sd = mean, P(x > mean) = 1/e. */
		EXPECT_LT(fabs_d(m.mean - (double)mean),
			  5.0 * mean / sqrt_d(N) + 1)
			TH_LOG("mean %llu: %f", (unsigned long long)mean, m.mean);
		EXPECT_LT(fabs_d(m.sd - (double)mean), 0.05 * mean + 1);
		EXPECT_GT(over, (u32)(N * 0.3579));
		EXPECT_LT(over, (u32)(N * 0.3779));
	}
	/*
	 * Mean 1, truncated to integers: floor of an exponential is
	 * geometric, of mean 1 / (e - 1) = 0.582.
	 */
	for (j = 0, over = 0; j < N; j++)
		over += (u32)edge_rng_exp(&r, 1);
	EXPECT_GT(over, (u32)(N * 0.56));
	EXPECT_LT(over, (u32)(N * 0.60));
}

TEST(stats_latency)
{
	static struct edge_lat l;
	struct edge_rng r;
	u32 i, p;

	memset(&l, 0, sizeof(l));
	EXPECT_EQ(0ULL, edge_lat_avg(&l));
	EXPECT_EQ(0ULL, edge_lat_pct(&l, 99));
	edge_lat_add(&l, 5);
	EXPECT_EQ(5ULL, l.min);
	EXPECT_EQ(5ULL, l.max);
	EXPECT_EQ(5ULL, edge_lat_pct(&l, 1));
	EXPECT_EQ(5ULL, edge_lat_pct(&l, 100));
	edge_lat_add(&l, 0);
	EXPECT_EQ(0ULL, l.min);
	EXPECT_EQ(2ULL, edge_lat_avg(&l));

	/* Below 8 every value has a bucket: percentiles are exact. */
	memset(&l, 0, sizeof(l));
	for (i = 0; i < 8; i++)
		edge_lat_add(&l, 7 - i);
	for (p = 1; p <= 100; p++)
		EXPECT_EQ((u64)((8 * p + 99) / 100 - 1), edge_lat_pct(&l, p))
			TH_LOG("p%u", p);

	/* 1 .. N: the p-th percentile is p * N / 100, within 12.5 %. */
	memset(&l, 0, sizeof(l));
	edge_rng_seed(&r, 5);
	for (i = 1; i <= N; i++)
		edge_lat_add(&l, i);
	EXPECT_EQ((u64)N, l.n);
	EXPECT_EQ((u64)N * (N + 1) / 2, l.sum);
	EXPECT_EQ((u64)(N + 1) / 2, edge_lat_avg(&l));
	for (p = 1; p <= 100; p++) {
		u64 want = (u64)p * N / 100, got = edge_lat_pct(&l, p);

		/* Never understates, never above the maximum. */
		EXPECT_GE(got, want) TH_LOG("p%u", p);
		EXPECT_LE(got, want + want / 8 + 1) TH_LOG("p%u", p);
		EXPECT_LE(got, l.max);
		if (p > 1)
			EXPECT_GE(got, edge_lat_pct(&l, p - 1));
	}
	EXPECT_EQ((u64)N, edge_lat_pct(&l, 100));
	/* Huge values land in the histogram too. */
	edge_lat_add(&l, ~0ULL >> 1);
	EXPECT_EQ(~0ULL >> 1, l.max);
	EXPECT_EQ(~0ULL >> 1, edge_lat_pct(&l, 100));
}

TEST_HARNESS_MAIN
