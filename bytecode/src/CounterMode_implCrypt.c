/*
 * CounterMode.implCrypt(byte[] in, int inOff, int len, byte[] out, int outOff)
 * (JDK 8: CounterMode.crypt) — the JDK's byte-at-a-time loop: when the
 * encrypted counter is used up, embeddedCipher.encryptBlock(counter) (a wasm
 * import) and a 128-bit big-endian increment of counter (CounterMode.increment).
 * Receiver fields first: K, counter (byte[16]), encryptedCounter (byte[16]),
 * and the int field used, passed as int[1] so the update is visible.
 */
#include "jvm.h"

IMPORT("AESCrypt.implEncryptBlock")
void encryptBlock(const u32 *K, i32 klen, const u8 *in, i32 inlen, i32 inOfs, u8 *out, i32 outlen, i32 outOfs);

typedef struct {
	const u32 *K;
	i32 klen;
	u8 *counter, *ectr;
	i32 *used;
	const u8 *in;
	i32 inlen, inOff, len;
	u8 *out;
	i32 outlen, outOff;
	i32 result;
} frame;

static i32 loop(frame *f)
{
	i32 len = f->len, inOff = f->inOff, outOff = f->outOff;
	i32 used = *f->used;
	const u8 *in = f->in;
	u8 *out = f->out, *ectr = f->ectr, *counter = f->counter;
	while (len-- > 0) {
		if (BR(0, used >= 16)) {
			SITE(0);
			*f->used = used;
			CHECKED(encryptBlock(f->K, f->klen, counter, 16, 0, ectr, 16, 0));
			/* CounterMode.increment: 128-bit big-endian */
			for (int i = 15; i >= 0; i--) {
				if (BR(1, ++counter[i] != 0))
					break;
				LOOPCOUNT();
			}
			used = 0;
		}
		out[outOff++] = in[inOff++] ^ ectr[used++];
		BACKEDGE(0, (f->len = len, f->inOff = inOff, f->outOff = outOff, *f->used = used));
	}
	*f->used = used;
	return f->result;
}

EXPORT("CounterMode.implCrypt")
i32 implCrypt(const u32 *K, i32 klen, u8 *counter, i32 clen, u8 *ectr, i32 elen, i32 *used, i32 ulen,
	      const u8 *in, i32 inlen, i32 inOff, i32 len, u8 *out, i32 outlen, i32 outOff)
{
	ENTRY();
	if (counter == 0 || clen != 16 || ectr == 0 || elen != 16 || used == 0 || ulen != 1 || *used < 0 || *used > 16)
		THROW(EX_AIOOBE, 0);
	if (!RANGE_OK(in, inlen, inOff, len) || !RANGE_OK(out, outlen, outOff, len))
		THROW(EX_AIOOBE, len);
	frame *f = FRAME(frame);
	f->K = K;
	f->klen = klen;
	f->counter = counter;
	f->ectr = ectr;
	f->used = used;
	f->in = in;
	f->inlen = inlen;
	f->inOff = inOff;
	f->len = len;
	f->out = out;
	f->outlen = outlen;
	f->outOff = outOff;
	f->result = len;
	return loop(f);
}

EXPORT("CounterMode.implCrypt$osr")
i32 implCrypt_osr(void)
{
	return loop(FRAME(frame));
}
