/*
 * aestab.h — AESCrypt's static tables, computed at class initialisation
 * (the JDK's AESCrypt fills S, Si, T1..T8 and the round constants in its
 * static initialiser from GF(2^8) arithmetic; FIPS 197 §5.1.1, §5.3.2).
 * Each module that needs them exports "clinit", which the host runs once
 * per instance before the first call.
 */
#ifndef AESTAB_H
#define AESTAB_H
#include "jvm.h"

static u8 S[256], Si[256];
static u32 T1[256], T2[256], T3[256], T4[256]; /* encryption rounds */
static u32 T5[256], T6[256], T7[256], T8[256]; /* equivalent inverse rounds */

static u8 xtime(u8 b) { return (u8)((b << 1) ^ ((b & 0x80) ? 0x1b : 0)); }

static u8 gmul(u8 a, u8 b)
{
	u8 p = 0;
	while (b) {
		if (b & 1)
			p ^= a;
		a = xtime(a);
		b >>= 1;
	}
	return p;
}

static u32 ror(u32 w, int n) { return (w >> n) | (w << (32 - n)); }

EXPORT("clinit") void clinit(void)
{
	/* Powers of the generator 3 give the multiplicative inverse of
	 * every non-zero element: inv(3^i) = 3^(255-i). */
	u8 alog[256], log[256];
	u8 p = 1;
	for (int i = 0; i < 255; i++) {
		alog[i] = p;
		log[p] = (u8)i;
		p ^= xtime(p);
	}
	for (int x = 0; x < 256; x++) {
		u8 inv = x ? alog[(255 - log[x]) % 255] : 0;
		/* affine transform, FIPS 197 eq. 5.1 */
		u8 s = inv;
		u8 r = inv;
		for (int k = 0; k < 4; k++) {
			r = (u8)((r << 1) | (r >> 7));
			s ^= r;
		}
		s ^= 0x63;
		S[x] = s;
		Si[s] = (u8)x;
	}
	for (int x = 0; x < 256; x++) {
		u8 s = S[x];
		u32 t = (u32)gmul(s, 2) << 24 | (u32)s << 16 | (u32)s << 8 | gmul(s, 3);
		T1[x] = t;
		T2[x] = ror(t, 8);
		T3[x] = ror(t, 16);
		T4[x] = ror(t, 24);
		u8 v = Si[x];
		u32 d = (u32)gmul(v, 14) << 24 | (u32)gmul(v, 9) << 16 | (u32)gmul(v, 13) << 8 | gmul(v, 11);
		T5[x] = d;
		T6[x] = ror(d, 8);
		T7[x] = ror(d, 16);
		T8[x] = ror(d, 24);
	}
}

/* KEY_OK tells whether an expanded key has 44, 52 or 60 words; the JDK's
 * intrinsics and its Java code derive the round count from that length. */
#define KEY_OK(n) ((n) == 44 || (n) == 52 || (n) == 60)
#endif
