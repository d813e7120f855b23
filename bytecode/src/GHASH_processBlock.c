/*
 * GHASH.processBlock(byte[] data, int ofs, long[] st, long[] subH) — one
 * block into the state (JDK 8 GA's GHASH.update calls it per block; later
 * JDKs call it from processBlocks per block and for a padded last block).
 * Default build (JDK 8, 8u): GHASH.blockMult inlined (ghash.h). -DCALLS
 * (JDK 17+, whose class files the method table is checked against):
 * blockMult is a call, a wasm import, as in the JDK's bytecode.
 */
#include "ghash.h"

#ifdef CALLS
IMPORT("GHASH.blockMult")
void blockMultCall(u64 *st, i32 stlen, const u64 *subH, i32 hlen);
#endif

EXPORT("GHASH.processBlock")
void processBlock_(const u8 *data, i32 dlen, i32 ofs, u64 *st, i32 stlen, const u64 *subH, i32 hlen)
{
	ENTRY();
	if (st == 0 || stlen < 2 || subH == 0 || hlen < 2)
		THROWV(EX_AIOOBE, 0);
	if (!RANGE_OK(data, dlen, ofs, 16))
		THROWV(EX_AIOOBE, ofs);
#ifndef CALLS
	processBlock(data + ofs, st, subH);
#else
	st[0] ^= be64(data + ofs);
	st[1] ^= be64(data + ofs + 8);
	SITE(0);
	CHECKEDV(blockMultCall(st, stlen, subH, hlen));
#endif
}
