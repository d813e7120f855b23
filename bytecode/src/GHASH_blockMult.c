/*
 * GHASH.blockMult(long[] st, long[] subH) — JDK 9+'s private static
 * helper: the state times the subkey H in GF(2^128), bit by bit
 * (SP 800-38D §6.3, Algorithm 1, the state as two big-endian 64-bit
 * halves). It is a method of its own, called once per block by
 * GHASH.processBlock, so HotSpot counts its invocations and the
 * back-edges of its bit loops apart from its callers and compiles it
 * first (on stack, within the first messages). The JDK's two 64-trip
 * loops (one per half of the state) are one 128-trip loop here, with an
 * OSR entry; the model places it at the first loop's header.
 */
#include "ghash.h"

typedef struct {
	u64 *st;
	u64 z0, z1, v0, v1, x;
	i32 i;
} frame;

static void loop(frame *f)
{
	u64 z0 = f->z0, z1 = f->z1, v0 = f->v0, v1 = f->v1, x = f->x;
	i32 i = f->i;
	while (i < 128) {
		if (i == 64)
			x = f->st[1];
		gf_step(&z0, &z1, &v0, &v1, &x);
		i++;
		BACKEDGEV(0, (f->z0 = z0, f->z1 = z1, f->v0 = v0, f->v1 = v1, f->x = x, f->i = i));
	}
	f->st[0] = z0;
	f->st[1] = z1;
}

EXPORT("GHASH.blockMult")
void blockMult_(u64 *st, i32 stlen, const u64 *subH, i32 hlen)
{
	ENTRY();
	if (st == 0 || subH == 0)
		THROWV(EX_NPE, 0);
	if (stlen < 2 || hlen < 2)
		THROWV(EX_AIOOBE, stlen < 2 ? stlen : hlen);
	frame *f = FRAME(frame);
	f->st = st;
	f->z0 = 0;
	f->z1 = 0;
	f->v0 = subH[0];
	f->v1 = subH[1];
	f->x = st[0];
	f->i = 0;
	loop(f);
}

EXPORT("GHASH.blockMult$osr")
void blockMult_osr(void)
{
	loop(FRAME(frame));
}
