// SPDX-License-Identifier: GPL-2.0
/*
 * EDGE_FN_CRC32C: CRC-32C (Castagnoli), as iSCSI, ext4 and SCTP use it.
 *
 * Four bits at a time from a 16-entry table: small enough to write out,
 * needs no initialisation (a lazily built 256-entry table would race
 * between devices), and plain C, so the host tests run the same code.
 */
#include "fn/func.h"

/* crc of nibble n under the reflected polynomial 0x82f63b78 */
static const u32 crc32c_nibble[16] = {
	0x00000000, 0x105ec76f, 0x20bd8ede, 0x30e349b1,
	0x417b1dbc, 0x5125dad3, 0x61c69362, 0x7198540d,
	0x82f63b78, 0x92a8fc17, 0xa24bb5a6, 0xb21572c9,
	0xc38d26c4, 0xd3d3e1ab, 0xe330a81a, 0xf36e6f75,
};

/*
 * Raw update, no pre- or post-inversion: the same contract as the
 * kernel's __crc32c_le(), so edge_crc32c(~0, p, n) ^ ~0 is the CRC.
 */
u32 edge_crc32c(u32 crc, const u8 *p, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++) {
		crc ^= edge_read_once(p[i]);
		crc = (crc >> 4) ^ crc32c_nibble[crc & 15];
		crc = (crc >> 4) ^ crc32c_nibble[crc & 15];
	}
	return crc;
}

u32 edge_fn_crc32c(void *param, u32 param_size, u32 *res)
{
	struct edge_crc_param *cp = param;
	u32 len, crc;

	if (param_size < sizeof(*cp))
		goto bad;
	len = edge_read_once(cp->len);
	if (len > param_size - sizeof(*cp))
		goto bad;
	crc = edge_crc32c(~0U, cp->data, len) ^ ~0U;
	edge_write_once(cp->crc, crc);
	*res = crc;
	return EDGE_CQE_DONE;
bad:
	*res = EINVAL;
	return EDGE_CQE_ERROR;
}
