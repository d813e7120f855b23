/*
 * GaloisCounterMode.GCMEngine.doLastBlock — the array path of the GCM
 * engine's doFinal after AAD and buffering: with -DPARALLEL_LEN (JDK 18+)
 * the PARALLEL_LEN-aligned head goes through implGCMCrypt; the rest through
 * gctr.doFinal and ghash.doFinal, GHASH over the ciphertext (after GCTR when
 * encrypting, before it when decrypting). Without PARALLEL_LEN (JDK 8, 8u,
 * 17) only the GCTR/GHASH path exists. Parameters: boolean encryption, the
 * data arrays, then the GCTR and GHASH objects' fields. All calls are imports.
 */
#include "gcm.h"

IMPORT("GCTR.doFinal")
i32 gctr_doFinal(GCTR_PARAMS, const u8 *in, i32 inlen, i32 inOfs, i32 len, u8 *out, i32 outlen, i32 outOfs);
IMPORT("GHASH.doFinal")
i32 ghash_doFinal(GHASH_PARAMS, const u8 *in, i32 inlen, i32 inOfs, i32 len);
#ifdef PARALLEL_LEN
IMPORT("GaloisCounterMode.implGCMCrypt")
i32 implGCMCrypt(const u8 *in, i32 inlen, i32 inOfs, i32 inLen, const u8 *ct, i32 ctlen, i32 ctOfs,
		 u8 *out, i32 outlen, i32 outOfs, GCTR_PARAMS, GHASH_PARAMS);
#endif

EXPORT("GaloisCounterMode.GCMEngine.doLastBlock")
i32 doLastBlock(i32 encryption, const u8 *in, i32 inlen, i32 inOfs, i32 inLen, u8 *out, i32 outlen, i32 outOfs,
		GCTR_PARAMS, GHASH_PARAMS)
{
	ENTRY();
	if (!RANGE_OK(in, inlen, inOfs, inLen) || !RANGE_OK(out, outlen, outOfs, inLen))
		THROW(EX_AIOOBE, inLen);
	i32 len = 0;
#ifdef PARALLEL_LEN
	if (BR(0, inLen >= PARALLEL_LEN)) {
		/* the combined path reads ct after GCTR wrote out: not for
		 * in-place decryption (GCMEngine.inPlaceArray) */
		const u8 *ct = encryption ? out : in;
		i32 ctlen = encryption ? outlen : inlen, ctOfs = encryption ? outOfs : inOfs;
		if (BR(1, !encryption && in == out))
			ct = 0;
		SITE(0);
		CHECKED(len = implGCMCrypt(in, inlen, inOfs, inLen - inLen % PARALLEL_LEN, ct, ctlen, ctOfs, out,
					   outlen, outOfs, GCTR_ARGS, GHASH_ARGS));
	}
#endif
	i32 rem = inLen - len;
	if (BR(2, encryption)) {
		SITE(1);
		CHECKED(gctr_doFinal(GCTR_ARGS, in, inlen, inOfs + len, rem, out, outlen, outOfs + len));
		SITE(2);
		CHECKED(ghash_doFinal(GHASH_ARGS, out, outlen, outOfs + len, rem));
	} else {
		SITE(3);
		CHECKED(ghash_doFinal(GHASH_ARGS, in, inlen, inOfs + len, rem));
		SITE(4);
		CHECKED(gctr_doFinal(GCTR_ARGS, in, inlen, inOfs + len, rem, out, outlen, outOfs + len));
	}
	return inLen;
}
