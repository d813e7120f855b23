/*
 * GHASH.processBlock(byte[] data, int ofs, long[] st, long[] subH) — one
 * block into the state (JDK 8 GA's GHASH.update calls it per block; later
 * JDKs call it for a padded last block).
 */
#include "ghash.h"

EXPORT("GHASH.processBlock")
void processBlock_(const u8 *data, i32 dlen, i32 ofs, u64 *st, i32 stlen, const u64 *subH, i32 hlen)
{
	ENTRY();
	if (st == 0 || stlen < 2 || subH == 0 || hlen < 2)
		THROWV(EX_AIOOBE, 0);
	if (!RANGE_OK(data, dlen, ofs, 16))
		THROWV(EX_AIOOBE, ofs);
	processBlock(data + ofs, st, subH);
}
