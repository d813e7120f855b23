/*
 * GaloisCounterMode.implGCMCrypt(byte[] in, int inOfs, int inLen, byte[] ct,
 * int ctOfs, byte[] out, int outOfs, GCTR gctr, GHASH ghash) — the caller of
 * the combined intrinsic: SPLIT_LEN (1 MiB) chunks through implGCMCrypt0,
 * then the rest; with ct == null (in-place decryption) GHASH first, then
 * GCTR, never the combined path. All calls are wasm imports.
 */
#include "gcm.h"

IMPORT("GaloisCounterMode.implGCMCrypt0")
i32 implGCMCrypt0(const u8 *in, i32 inlen, i32 inOfs, i32 inLen, const u8 *ct, i32 ctlen, i32 ctOfs,
		  u8 *out, i32 outlen, i32 outOfs, GCTR_PARAMS, GHASH_PARAMS);

EXPORT("GaloisCounterMode.implGCMCrypt")
i32 implGCMCrypt(const u8 *in, i32 inlen, i32 inOfs, i32 inLen, const u8 *ct, i32 ctlen, i32 ctOfs,
		 u8 *out, i32 outlen, i32 outOfs, GCTR_PARAMS, GHASH_PARAMS)
{
	ENTRY();
	i32 len = 0;
	if (BR(0, inLen > SPLIT_LEN && ct != 0)) {
		while (inLen >= SPLIT_LEN) {
			i32 part;
			SITE(0);
			CHECKED(part = implGCMCrypt0(in, inlen, inOfs + len, SPLIT_LEN, ct, ctlen, ctOfs + len,
						     out, outlen, outOfs + len, GCTR_ARGS, GHASH_ARGS));
			len += part;
			inLen -= part;
			LOOPCOUNT();
		}
	}
	if (BR(1, inLen > 0)) {
		if (BR(2, ct == 0)) {
			SITE(1);
			CHECKED(ghash_update(GHASH_ARGS, in, inlen, inOfs + len, inLen));
			i32 n;
			SITE(2);
			CHECKED(n = gctr_update(GCTR_ARGS, in, inlen, inOfs + len, inLen, out, outlen, outOfs));
			len += n;
		} else {
			i32 n;
			SITE(3);
			CHECKED(n = implGCMCrypt0(in, inlen, inOfs + len, inLen, ct, ctlen, ctOfs + len, out, outlen,
						  outOfs + len, GCTR_ARGS, GHASH_ARGS));
			len += n;
		}
	}
	return len;
}
