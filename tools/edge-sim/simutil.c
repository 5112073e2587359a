// SPDX-License-Identifier: GPL-2.0
/*
 * What edge-sim's subcommands share: one way to die and one number
 * reader.  Each subcommand keeps its own words for a bad number and its
 * own syntax (base, suffixes), since scenario files rely on them; only
 * the mechanics are here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simutil.h"
#include "../include/edge_nearest.h"
#include "validate.h"
#include "gpu/preset.h"
#include "policy/policy.h"
#include "gpu/simt.h"
#include "simscen.h"

/*
 * The fuzzers' hook (selftests/fuzz/fuzz_sim.c): with it set, an input
 * error returns there instead of ending the process; and a subcommand
 * stops after reading and validating its input.
 */
jmp_buf *sim_exit_jmp;
bool sim_parse_only;

/* exit(@code), or back to the fuzzer's sim_exit_jmp. */
void sim_exit(int code)
{
	if (sim_exit_jmp)
		longjmp(*sim_exit_jmp, code ? code : 1);
	exit(code);
}

/**
 * sim_die() - say what was wrong and exit(2)
 * @who: the subcommand, as the user typed it ("edge-sim jobs")
 * @fmt: printf's, without the newline
 *
 * Every bad input of edge-sim ends here: "WHO: message" on stderr.
 */
void sim_die(const char *who, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", who);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	sim_exit(2);
}

/**
 * sim_num() - all of @v as an unsigned number
 * @v: the text
 * @base: strtoull()'s: 10, or 0 to take C's 0x and 0 prefixes too
 * @sfx: the suffixes allowed after the digits, at most one of them, of
 *       "kKM": k and K multiply by 1000, M by 1000000; "" for none
 * @x: the value, when there is one
 *
 * @v must start with a digit: strtoull() would take white space and a
 * sign before it, and read "-1" as ULLONG_MAX.  A value past ULLONG_MAX
 * is ULLONG_MAX with errno ERANGE: a caller that refuses that sets errno
 * to 0 first and looks at it after.  A suffix that takes it past is the
 * same.
 *
 * Return: true when @v is digits and at most one suffix of @sfx, nothing
 * else; false (and @x untouched) otherwise.
 */
bool sim_num(const char *v, int base, const char *sfx, u64 *x)
{
	unsigned long long n;
	char *end;

	if (!isdigit((unsigned char)*v))
		return false;
	n = strtoull(v, &end, base);
	if (end == v)
		return false;
	if (*end && strchr(sfx, *end)) {
		u64 mul = *end == 'M' ? 1000000 : 1000;

		/* 20000000M is no small number: saturate, as strtoull. */
		if (n > ~0ULL / mul) {
			n = ~0ULL;
			errno = ERANGE;
		} else {
			n *= mul;
		}
		end++;
	}
	if (*end)
		return false;
	*x = n;
	return true;
}

/**
 * sim_bad() - a bad key=value of an input: say so and exit(2)
 * @who: the subcommand ("edge-sim jobs")
 * @where: "file:line" (or "-s", "-m": where the value came from)
 * @key: the key as the input spells it
 * @val: its value as written
 * @fmt: printf's: the reason and its limit ("at most 100")
 *
 * Every input error of edge-sim reads "WHO: FILE:LINE: KEY=VALUE: REASON",
 * which an editor jumps to and a test greps for.
 */
void sim_bad(const char *who, const char *where, const char *key,
	     const char *val, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: %s=%s: ", who, where, key, val);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	sim_exit(2);
}

/**
 * sim_nearest() - the known name nearest @name
 * @name: what the input said
 * @known: the names there are, NULL-terminated
 *
 * Return: the nearest by edit distance (the first of equals), or NULL
 * when @known is empty.
 */
const char *sim_nearest(const char *name, const char *const *known)
{
	const char *best = NULL;
	unsigned int bd = ~0U, d;

	for (; *known; known++) {
		/* A prefix of a name ("h100" of "h100-like") is nearest. */
		d = !strncmp(*known, name, strlen(name)) ? 1 :
		    2 * edge_distance(name, *known);
		if (d < bd) {
			bd = d;
			best = *known;
		}
	}
	return best;
}

/**
 * sim_unknown() - an unknown name: say which, and the nearest known one
 * @who: the subcommand
 * @where: "file:line" or the option
 * @what: what kind of name ("key", "policy", "rate", "preset")
 * @name: the unknown name
 * @known: the known ones, NULL-terminated
 */
void sim_unknown(const char *who, const char *where, const char *what,
		 const char *name, const char *const *known)
{
	const char *n = sim_nearest(name, known);

	fprintf(stderr, "%s: %s: unknown %s '%s'", who, where, what, name);
	if (n)
		fprintf(stderr, " (nearest: %s)", n);
	fputc('\n', stderr);
	sim_exit(2);
}

/**
 * sim_key_num() - @v as a number of key @key, from @min to @max, or exit 2
 * @who: the subcommand
 * @where: "file:line"
 * @key: the key, for the message
 * @v: the text (NULL: missing)
 * @base: sim_num()'s
 * @sfx: sim_num()'s suffixes
 * @min: the least value allowed
 * @max: the most
 *
 * Return: the value, which is in [@min, @max].
 */
u64 sim_key_num(const char *who, const char *where, const char *key,
		const char *v, int base, const char *sfx, u64 min, u64 max)
{
	u64 x = 0;
	bool ok;

	if (!v || !*v)
		sim_bad(who, where, key, "", "a value is missing");
	errno = 0;
	ok = sim_num(v, base, sfx, &x);
	if (ok && errno)
		sim_bad(who, where, key, v, "out of range: from %llu to %llu",
			(unsigned long long)min, (unsigned long long)max);
	if (!ok)
		sim_bad(who, where, key, v, "not a number (digits%s%s)",
			*sfx ? ", then one of " : "", sfx);
	if (x < min || x > max)
		sim_bad(who, where, key, v, "out of range: from %llu to %llu",
			(unsigned long long)min, (unsigned long long)max);
	return x;
}

/**
 * sim_validate() - the model's own validator on @r, or exit 2 naming the key
 * @who: the subcommand
 * @where: the kernel's line
 * @name: the kernel's (or job's, task's) name
 * @p: the preset it runs on
 * @r: the description, in the ABI's form
 * @out: the model's kernel description
 * @map: pairs of { model field, input key } (NULL-terminated): the input's
 *       name for each field edge_validate_register_why() may name
 *
 * Return: only when edge.ko would accept @r on @p.
 */
void sim_validate(const char *who, const char *where, const char *name,
		  const struct edge_preset *p, const struct edge_register *r,
		  struct edge_kdesc *out, const char *const (*map)[2])
{
	struct edge_validate_err e;
	const char *key;
	char val[32];

	if (!edge_validate_register_why(p, r, out, &e))
		return;
	key = e.field;
	for (; map && (*map)[0]; map++)
		if (!strcmp((*map)[0], e.field))
			key = (*map)[1];
	snprintf(val, sizeof(val), "%llu", (unsigned long long)e.value);
	fprintf(stderr, "%s: %s: %s=%s: %s %llu (%s %s on preset %s, "
		"edge_validate_register)\n", who, where, key, val, e.why,
		(unsigned long long)e.limit, name, e.field, p->name);
	sim_exit(2);
}

/* The model's table of presets, by name, NULL-terminated. */
const char *const *preset_names(void)
{
	static const char *names[64];
	unsigned int i;

	for (i = 0; i < 63 && edge_preset_at(i); i++)
		names[i] = edge_preset_at(i)->name;
	names[i] = NULL;
	return names;
}

/**
 * sim_check_list() - every name of a comma list is known, or exit 2
 * @who: the subcommand
 * @opt: the option ("-P"), for the message
 * @list: "a,b,c" (NULL: nothing to check)
 * @known: the names there are, NULL-terminated
 *
 * A sweep runs what its list names: a typo must not shrink it silently
 * (-P rr,LAX once ran rr alone).
 */
void sim_check_list(const char *who, const char *opt, const char *list,
		    const char *const *known)
{
	const char *s = list, *e;
	char name[128];
	size_t n;

	if (!list)
		return;
	for (;;) {
		const char *const *k;

		e = strchr(s, ',');
		n = e ? (size_t)(e - s) : strlen(s);
		if (!n || n >= sizeof(name))
			sim_bad(who, opt, opt, list, "an empty or long name "
				"in the list");
		memcpy(name, s, n);
		name[n] = 0;
		for (k = known; *k && strcmp(*k, name); k++)
			;
		if (!*k)
			sim_unknown(who, opt, "name", name, known);
		if (!e)
			return;
		s = e + 1;
	}
}

/**
 * sim_prov() - a row's provenance: SIM_PROV_COLS's values
 * @o: the CSV
 * @preset: the device preset's name
 * @qpol: the command processor's queue policy, or "none"
 * @cfg: the model's configuration the row ran with (thread-block policy,
 *       preemption strategy and victim, flush options)
 * @seed: the first run's seed
 * @runs: the runs the row sums
 */
void sim_prov(FILE *o, const char *preset, const char *qpol,
	      const struct edge_simt_cfg *cfg, u64 seed, u32 runs)
{
	char fl[64];

	flush_str(cfg->flush, fl, sizeof(fl));
	fprintf(o, ",%s,%s,%s,%s,%s,%s,%llu,%u,%s", preset, qpol,
		edge_tb_policy_name(cfg->tb_policy), edge_sched_table[cfg->sched].name,
		edge_victim_table[cfg->victim].name, fl, (unsigned long long)seed, runs,
		EDGE_SIM_VERSION);
}
