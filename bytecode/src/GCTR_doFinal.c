/*
 * GCTR.doFinal(byte[] in, int inOfs, int inLen, byte[] out, int outOfs) —
 * whole blocks through GCTR.update, then the last partial block xored with
 * one more encrypted counter (AESCrypt.encryptBlock). Both are wasm imports.
 */
#include "jvm.h"

IMPORT("AESCrypt.implEncryptBlock")
void encryptBlock(const u32 *K, i32 klen, const u8 *in, i32 inlen, i32 inOfs, u8 *out, i32 outlen, i32 outOfs);
IMPORT("GCTR.update")
i32 update(const u32 *K, i32 klen, u8 *counter, i32 clen, u8 *ectr, i32 elen, i32 *used, i32 ulen,
	   const u8 *in, i32 inlen, i32 inOfs, i32 len, u8 *out, i32 outlen, i32 outOfs);

EXPORT("GCTR.doFinal")
i32 doFinal(const u32 *K, i32 klen, u8 *counter, i32 clen, u8 *ectr, i32 elen, i32 *used, i32 ulen,
	    const u8 *in, i32 inlen, i32 inOfs, i32 len, u8 *out, i32 outlen, i32 outOfs)
{
	ENTRY();
	if (BR(0, len <= 0))
		return 0;
	if (!RANGE_OK(in, inlen, inOfs, len) || !RANGE_OK(out, outlen, outOfs, len))
		THROW(EX_AIOOBE, len);
	i32 last = len & 15, whole = len - last;
	SITE(0);
	CHECKED(update(K, klen, counter, clen, ectr, elen, used, ulen, in, inlen, inOfs, whole, out, outlen, outOfs));
	if (BR(1, last != 0)) {
		u8 *e = (u8 *)CTL->frame; /* new byte[blockSize] */
		SITE(1);
		CHECKED(encryptBlock(K, klen, counter, clen, 0, e, 16, 0));
		for (int n = 0; n < last; n++)
			out[outOfs + whole + n] = in[inOfs + whole + n] ^ e[n];
	}
	return len;
}
