/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tests' own Internet checksum, independent of emul/fn/fn_net.c:
 * host-order 16-bit words through ntohs, summed as RFC 1071 defines it,
 * so that a byte-order slip in the model's sum cannot hide in both.
 */
#ifndef _REF_CSUM_H
#define _REF_CSUM_H

#include <arpa/inet.h>
#include <stdint.h>
#include <string.h>

/* The one's-complement of the sum of @n bytes at @p, starting at @sum. */
static inline uint16_t ref_csum(const void *p, size_t n, uint32_t sum)
{
	const uint8_t *b = p;
	uint16_t w;

	for (; n > 1; n -= 2, b += 2) {
		memcpy(&w, b, 2);
		sum += ntohs(w);
	}
	if (n)
		sum += (uint32_t)b[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

#endif /* _REF_CSUM_H */
