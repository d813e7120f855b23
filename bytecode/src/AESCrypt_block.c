/*
 * AESCrypt.implEncryptBlock(byte[] in, int inOffset, byte[] out, int outOffset)
 * and, built with -DDECRYPT, AESCrypt.implDecryptBlock — one 16-byte block
 * with the JDK's T-table algorithm: an initial AddRoundKey, a loop doing two
 * table rounds per trip, one more table round and the S-box final round.
 * The receiver's expanded key (K, 44/52/60 words, FIPS 197 §5.2 / §5.3.5
 * layout) comes first; the round count follows from its length.
 */
#include "aestab.h"

#ifndef DECRYPT
#define NAME "AESCrypt.implEncryptBlock"
#define TA T1
#define TB T2
#define TC T3
#define TD T4
#define SB S
/* encryption takes columns 0,1,2,3 into bytes 0..3 of each output word;
 * the equivalent inverse cipher takes 0,3,2,1 (ShiftRows vs InvShiftRows). */
#define C1(a, b, c, d) b
#define C3(a, b, c, d) d
#else
#define NAME "AESCrypt.implDecryptBlock"
#define TA T5
#define TB T6
#define TC T7
#define TD T8
#define SB Si
#define C1(a, b, c, d) d
#define C3(a, b, c, d) b
#endif

/* ROUND is one table round: word j takes its bytes from words j, j+1, j+2,
 * j+3 (encryption) or j, j+3, j+2, j+1 (decryption), mod 4. */
#define ROUND(o0, o1, o2, o3, i0, i1, i2, i3, kk)                                          \
	o0 = TA[i0 >> 24] ^ TB[(C1(i0, i1, i2, i3) >> 16) & 0xff] ^ TC[(i2 >> 8) & 0xff] ^      \
	     TD[C3(i0, i1, i2, i3) & 0xff] ^ kk[0];                                          \
	o1 = TA[i1 >> 24] ^ TB[(C1(i1, i2, i3, i0) >> 16) & 0xff] ^ TC[(i3 >> 8) & 0xff] ^      \
	     TD[C3(i1, i2, i3, i0) & 0xff] ^ kk[1];                                          \
	o2 = TA[i2 >> 24] ^ TB[(C1(i2, i3, i0, i1) >> 16) & 0xff] ^ TC[(i0 >> 8) & 0xff] ^      \
	     TD[C3(i2, i3, i0, i1) & 0xff] ^ kk[2];                                          \
	o3 = TA[i3 >> 24] ^ TB[(C1(i3, i0, i1, i2) >> 16) & 0xff] ^ TC[(i1 >> 8) & 0xff] ^      \
	     TD[C3(i3, i0, i1, i2) & 0xff] ^ kk[3]

#define LAST(i0, i1, i2, i3, kw)                                                              \
	((u32)SB[i0 >> 24] << 24 | (u32)SB[(C1(i0, i1, i2, i3) >> 16) & 0xff] << 16 |          \
	 (u32)SB[(i2 >> 8) & 0xff] << 8 | (u32)SB[C3(i0, i1, i2, i3) & 0xff]) ^ (kw)

EXPORT(NAME)
void implBlock(const u32 *K, i32 klen, const u8 *in, i32 inlen, i32 inOfs, u8 *out, i32 outlen, i32 outOfs)
{
	ENTRY();
	if (K == 0 || !KEY_OK(klen))
		THROWV(EX_INVALIDKEY, klen);
	if (!RANGE_OK(in, inlen, inOfs, 16))
		THROWV(EX_AIOOBE, inOfs);
	if (!RANGE_OK(out, outlen, outOfs, 16))
		THROWV(EX_AIOOBE, outOfs);
	in += inOfs;
	out += outOfs;
	u32 t0 = be32(in) ^ K[0];
	u32 t1 = be32(in + 4) ^ K[1];
	u32 t2 = be32(in + 8) ^ K[2];
	u32 t3 = be32(in + 12) ^ K[3];
	const u32 *k = K + 4;
	/* two rounds per trip: 4, 5 or 6 trips for 10, 12 or 14 rounds */
	const u32 *limit = K + klen - 8;
	while (k < limit) {
		u32 a0, a1, a2, a3;
		ROUND(a0, a1, a2, a3, t0, t1, t2, t3, k);
		ROUND(t0, t1, t2, t3, a0, a1, a2, a3, (k + 4));
		k += 8;
		LOOPCOUNT();
	}
	u32 a0, a1, a2, a3;
	ROUND(a0, a1, a2, a3, t0, t1, t2, t3, k);
	k += 4;
	/* copy through locals first so that in == out works */
	u32 r0 = LAST(a0, a1, a2, a3, k[0]);
	u32 r1 = LAST(a1, a2, a3, a0, k[1]);
	u32 r2 = LAST(a2, a3, a0, a1, k[2]);
	u32 r3 = LAST(a3, a0, a1, a2, k[3]);
	put32(out, r0);
	put32(out + 4, r1);
	put32(out + 8, r2);
	put32(out + 12, r3);
}
