/*
 * CounterMode.crypt(byte[] in, int inOff, int len, byte[] out, int outOff)
 * (JDK 9+) — the checking caller of the CTR intrinsic candidate: return 0
 * for an empty input, ArrayUtil.nullAndBoundsCheck on both arrays, then
 * implCrypt through a wasm import (the call site C2 intrinsifies).
 * Receiver fields first, as for implCrypt.
 */
#include "jvm.h"

IMPORT("CounterMode.implCrypt")
i32 implCrypt(const u32 *K, i32 klen, u8 *counter, i32 clen, u8 *ectr, i32 elen, i32 *used, i32 ulen,
	      const u8 *in, i32 inlen, i32 inOff, i32 len, u8 *out, i32 outlen, i32 outOff);

EXPORT("CounterMode.crypt")
i32 crypt(const u32 *K, i32 klen, u8 *counter, i32 clen, u8 *ectr, i32 elen, i32 *used, i32 ulen,
	  const u8 *in, i32 inlen, i32 inOff, i32 len, u8 *out, i32 outlen, i32 outOff)
{
	ENTRY();
	if (BR(0, len == 0))
		return 0;
	if (!RANGE_OK(in, inlen, inOff, len))
		THROW(EX_AIOOBE, inOff);
	if (!RANGE_OK(out, outlen, outOff, len))
		THROW(EX_AIOOBE, outOff);
	SITE(0);
	i32 n;
	CHECKED(n = implCrypt(K, klen, counter, clen, ectr, elen, used, ulen, in, inlen, inOff, len, out, outlen, outOff));
	return n;
}
