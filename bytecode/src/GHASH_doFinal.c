/*
 * GHASH.doFinal(byte[] in, int inOfs, int inLen) — whole blocks through
 * GHASH.update, then a last partial block zero-padded to 16 bytes through
 * GHASH.processBlock (both wasm imports). Receiver fields first: state,
 * subkeyHtbl.
 */
#include "jvm.h"

IMPORT("GHASH.update")
void update(u64 *st, i32 stlen, const u64 *subH, i32 hlen, const u8 *in, i32 inlen, i32 inOfs, i32 len);
IMPORT("GHASH.processBlock")
void processBlock(const u8 *data, i32 dlen, i32 ofs, u64 *st, i32 stlen, const u64 *subH, i32 hlen);

EXPORT("GHASH.doFinal")
i32 doFinal(u64 *st, i32 stlen, const u64 *subH, i32 hlen, const u8 *in, i32 inlen, i32 inOfs, i32 len)
{
	ENTRY();
	if (BR(0, len <= 0))
		return 0;
	if (!RANGE_OK(in, inlen, inOfs, len))
		THROW(EX_AIOOBE, inOfs);
	i32 last = len & 15;
	SITE(0);
	CHECKED(update(st, stlen, subH, hlen, in, inlen, inOfs, len - last));
	if (BR(1, last != 0)) {
		u8 *block = (u8 *)CTL->frame; /* new byte[16] */
		for (int i = 0; i < 16; i++)
			block[i] = i < last ? in[inOfs + len - last + i] : 0;
		SITE(1);
		CHECKED(processBlock(block, 16, 0, st, stlen, subH, hlen));
	}
	return len;
}
