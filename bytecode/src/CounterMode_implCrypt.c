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

#if PROFILE == 0
static i32 blocks(frame *f);
#endif

static i32 loop(frame *f)
{
#if PROFILE == 0
	if (BLOCKS_ON)
		return blocks(f);
#endif
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

#if PROFILE == 0
BLOCKS_IMPORT("AESCrypt.implEncryptBlock")
void encryptBlocks(const u32 *K, i32 klen, const u8 *in, i32 inlen, i32 inOfs, u8 *out, i32 outlen, i32 outOfs, i32 n);

#define BATCH 64

typedef u64 __attribute__((aligned(1))) u64u; /* possibly unaligned words */

/*
 * The loop above when its encryptBlock call is bound to the stub
 * (BLOCKS_ON): the same counters, block encryptions and xors, BATCH blocks
 * per host call. The bytes left of the encrypted counter go first; then
 * each batch encrypts the next k counters (the last one perhaps used only
 * in part), xors the bytes (8 at a time, as C2 vectorizes it, where in and
 * out are the same bytes or do not overlap; else one byte after another,
 * in the loop's order) and leaves the last encrypted counter in ectr. The
 * counter, ectr and the output are written once the batch's blocks are
 * encrypted: a batch whose first call throws leaves them as the loop
 * above would, and the calls of a batch differ only in their bytes, so no
 * later one throws where the first did not.
 */
static __attribute__((noinline)) i32 blocks(frame *f)
{
	u8 ctr[16 * BATCH], eb[16 * BATCH];
	i32 len = f->len;
	i32 used = *f->used;
	const u8 *in = f->in + f->inOff;
	u8 *out = f->out + f->outOff, *ectr = f->ectr, *counter = f->counter;
	int words = in == out || in + len <= out || out + len <= in;
	while (len > 0 && used < 16) {
		*out++ = *in++ ^ ectr[used++];
		len--;
	}
	while (len > 0) {
		i32 k = len > 16 * (BATCH - 1) ? BATCH : (len + 15) / 16;
		u8 c[16];
		for (int j = 0; j < 16; j++)
			c[j] = counter[j];
		for (i32 b = 0; b < k; b++) {
			for (int j = 0; j < 16; j++)
				ctr[16 * b + j] = c[j];
			/* CounterMode.increment: 128-bit big-endian */
			for (int j = 15; j >= 0; j--) {
				if (++c[j] != 0)
					break;
			}
		}
		*f->used = used;
		CHECKED(encryptBlocks(f->K, f->klen, ctr, 16 * k, 0, eb, 16 * k, 0, k));
		for (int j = 0; j < 16; j++) {
			counter[j] = c[j];
			ectr[j] = eb[16 * (k - 1) + j];
		}
		i32 m = len < 16 * k ? len : 16 * k;
		i32 w = 0;
		if (words) {
			for (; w + 8 <= m; w += 8)
				*(u64u *)(out + w) = *(const u64u *)(in + w) ^ *(const u64u *)(eb + w);
		}
		for (; w < m; w++)
			out[w] = in[w] ^ eb[w];
		used = m - 16 * (k - 1);
		in += m;
		out += m;
		len -= m;
	}
	*f->used = used;
	return f->result;
}
#endif

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
