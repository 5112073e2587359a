// SPDX-License-Identifier: GPL-2.0
/*
 * What edge-sim's subcommands share: one way to die and one number
 * reader.  Each subcommand keeps its own words for a bad number and its
 * own syntax (base, suffixes), since scenario files rely on them; only
 * the mechanics are here.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simutil.h"

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
	exit(2);
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
 * to 0 first and looks at it after.  A suffix does not check for
 * overflow.
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
		n *= *end == 'M' ? 1000000 : 1000;
		end++;
	}
	if (*end)
		return false;
	*x = n;
	return true;
}
