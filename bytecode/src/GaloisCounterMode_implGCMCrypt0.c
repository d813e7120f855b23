/*
 * GaloisCounterMode.implGCMCrypt0(byte[] in, int inOfs, int inLen, byte[] ct,
 * int ctOfs, byte[] out, int outOfs, GCTR gctr, GHASH ghash) — the Java body
 * of the combined AES-GCM intrinsic candidate (JDK 18+): round inLen down to
 * a multiple of PARALLEL_LEN (7680 in JDK 18-23, 512 from JDK-8337632;
 * built per profile with -DPARALLEL_LEN), then gctr.update and ghash.update
 * over the data — in 6 alternating segments when it reaches TRIGGERLEN.
 */
#include "gcm.h"

#ifndef PARALLEL_LEN
#error "build with -DPARALLEL_LEN"
#endif

EXPORT("GaloisCounterMode.implGCMCrypt0")
i32 implGCMCrypt0(const u8 *in, i32 inlen, i32 inOfs, i32 inLen, const u8 *ct, i32 ctlen, i32 ctOfs,
		  u8 *out, i32 outlen, i32 outOfs, GCTR_PARAMS, GHASH_PARAMS)
{
	ENTRY();
	inLen -= inLen % PARALLEL_LEN;
	i32 len = 0, cOfs = ctOfs;
	if (BR(0, inLen >= TRIGGERLEN)) {
		i32 i = 0;
		i32 segments = inLen / 6;
		segments -= segments % 16;
		do {
			i32 n;
			SITE(0);
			CHECKED(n = gctr_update(GCTR_ARGS, in, inlen, inOfs + len, segments, out, outlen, outOfs + len));
			len += n;
			SITE(1);
			CHECKED(ghash_update(GHASH_ARGS, ct, ctlen, cOfs, segments));
			cOfs = ctOfs + len;
			if (!BR(1, ++i < 5))
				break;
			LOOPCOUNT();
		} while (1);
		inLen -= len;
	}
	i32 n;
	SITE(2);
	CHECKED(n = gctr_update(GCTR_ARGS, in, inlen, inOfs + len, inLen, out, outlen, outOfs + len));
	len += n;
	SITE(3);
	CHECKED(ghash_update(GHASH_ARGS, ct, ctlen, cOfs, inLen));
	return len;
}
