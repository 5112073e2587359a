/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The known word nearest a mistyped one, for the tools' "did you mean":
 * edgectl's keywords, and edge-sim's keys and names (sim_nearest() in
 * tools/edge-sim/simutil.c, which ranks a prefix first).
 */
#ifndef _EDGE_NEAREST_H
#define _EDGE_NEAREST_H

#include <ctype.h>
#include <string.h>

/* Edit distance, case-insensitive: words are short (~0U past 62). */
static inline unsigned int edge_distance(const char *a, const char *b)
{
	unsigned int d[64], i, j, la = strlen(a), lb = strlen(b), prev, t;

	if (la > 62 || lb > 62)
		return ~0U;
	for (j = 0; j <= lb; j++)
		d[j] = j;
	for (i = 1; i <= la; i++) {
		prev = d[0];
		d[0] = i;
		for (j = 1; j <= lb; j++) {
			t = d[j];
			d[j] = prev + (tolower((unsigned char)a[i - 1]) !=
				       tolower((unsigned char)b[j - 1]));
			if (d[j - 1] + 1 < d[j])
				d[j] = d[j - 1] + 1;
			if (t + 1 < d[j])
				d[j] = t + 1;
			prev = t;
		}
	}
	return d[lb];
}

/*
 * The word of @known (NULL-terminated) nearest @word, the first of equals;
 * NULL when none is within half of @word's length, a guess too far to
 * offer.
 */
static inline const char *edge_nearest(const char *word,
				       const char * const *known)
{
	const char *best = NULL;
	unsigned int bd = ~0U, d;

	for (; *known; known++) {
		d = edge_distance(word, *known);
		if (d < bd) {
			bd = d;
			best = *known;
		}
	}
	return bd <= (strlen(word) + 1) / 2 ? best : NULL;
}

#endif /* _EDGE_NEAREST_H */
