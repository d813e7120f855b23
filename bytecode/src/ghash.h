/*
 * ghash.h — GHASH.blockMult(long[] st, long[] subH): multiplication in
 * GF(2^128) by the subkey H, bit by bit as the JDK's GHASH does
 * (SP 800-38D §6.3, Algorithm 1, with the state as two big-endian 64-bit
 * halves). blockMult is a private static helper of GHASH; jitsim compiles it
 * into the modules of its callers as an inlinee, so its two 64-trip loops
 * are not counted as back-edges of the caller.
 */
#ifndef GHASH_H
#define GHASH_H
#include "jvm.h"

/* gf_step is one trip of blockMult's bit loop: Z ^= V when the top bit of
 * x is set, then V = V·x (shift right one bit, reduce by R = 11100001 ||
 * 0^120) and the next bit of X. */
static inline void gf_step(u64 *z0, u64 *z1, u64 *v0, u64 *v1, u64 *x)
{
	u64 m = (u64)((i64)*x >> 63); /* all ones when the bit is set */
	*z0 ^= *v0 & m;
	*z1 ^= *v1 & m;
	u64 r = (u64)((i64)(*v1 << 63) >> 63);
	*v1 = (*v1 >> 1) | (*v0 << 63);
	*v0 = (*v0 >> 1) ^ (0xe100000000000000ULL & r);
	*x <<= 1;
}

static inline void blockMult(u64 *st, const u64 *subH)
{
	u64 z0 = 0, z1 = 0;
	u64 v0 = subH[0], v1 = subH[1];
	u64 x = st[0];
	/* bits 0..63 of X come from st[0], 64..127 from st[1], MSB first */
	for (int i = 0; i < 128; i++) {
		if (i == 64)
			x = st[1];
		gf_step(&z0, &z1, &v0, &v1, &x);
	}
	st[0] = z0;
	st[1] = z1;
}

/* processBlock is GHASH.processBlock(data, ofs, st, subH): xor one block
 * into the state and multiply by H. */
static inline void processBlock(const u8 *data, u64 *st, const u64 *subH)
{
	st[0] ^= be64(data);
	st[1] ^= be64(data + 8);
	blockMult(st, subH);
}
#endif
