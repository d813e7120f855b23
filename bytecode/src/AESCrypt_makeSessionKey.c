/*
 * AESCrypt.makeSessionKey(byte[] k) — key expansion (FIPS 197 §5.2) into
 * the encryption schedule Ke, and the equivalent inverse cipher's schedule
 * Kd (§5.3.5): round keys in reverse order, InvMixColumns on the middle ones.
 * The receiver's sessionK[0]/[1] are passed as the out-arrays ke and kd; the
 * return value is the number of rounds (AESCrypt.ROUNDS_*).
 */
#include "aestab.h"

EXPORT("AESCrypt.makeSessionKey")
i32 makeSessionKey(const u8 *k, i32 klen, u32 *ke, i32 kelen, u32 *kd, i32 kdlen)
{
	ENTRY();
	if (k == 0)
		THROW(EX_INVALIDKEY, 0);
	if (BR(0, klen != 16 && klen != 24 && klen != 32))
		THROW(EX_INVALIDKEY, klen);
	i32 nk = klen / 4, rounds = nk + 6, n = 4 * (rounds + 1);
	if (ke == 0 || kd == 0 || kelen != n || kdlen != n)
		THROW(EX_AIOOBE, n);
	for (i32 i = 0; i < nk; i++) {
		ke[i] = be32(k + 4 * i);
		LOOPCOUNT();
	}
	u8 rcon = 1;
	for (i32 i = nk; i < n; i++) {
		u32 t = ke[i - 1];
		if (BR(1, i % nk == 0)) {
			t = (t << 8) | (t >> 24);
			t = (u32)S[t >> 24] << 24 | (u32)S[(t >> 16) & 0xff] << 16 |
			    (u32)S[(t >> 8) & 0xff] << 8 | S[t & 0xff];
			t ^= (u32)rcon << 24;
			rcon = xtime(rcon);
		} else if (BR(2, nk > 6 && i % nk == 4)) {
			t = (u32)S[t >> 24] << 24 | (u32)S[(t >> 16) & 0xff] << 16 |
			    (u32)S[(t >> 8) & 0xff] << 8 | S[t & 0xff];
		}
		ke[i] = ke[i - nk] ^ t;
		LOOPCOUNT();
	}
	for (i32 r = 0; r <= rounds; r++) {
		for (i32 c = 0; c < 4; c++) {
			u32 w = ke[4 * (rounds - r) + c];
			if (BR(3, r > 0 && r < rounds))
				w = T5[S[w >> 24]] ^ T6[S[(w >> 16) & 0xff]] ^
				    T7[S[(w >> 8) & 0xff]] ^ T8[S[w & 0xff]];
			kd[4 * r + c] = w;
			LOOPCOUNT();
		}
		LOOPCOUNT();
	}
	return rounds;
}
