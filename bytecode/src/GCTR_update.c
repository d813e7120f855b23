/*
 * GCTR.update(byte[] in, int inOfs, int inLen, byte[] out, int outOfs) —
 * AES in GCM's counter mode with a 32-bit counter increment (SP 800-38D
 * §6.5, inc32). Receiver fields first: the embedded cipher's K, counter,
 * and CounterMode's encryptedCounter and used (JDK 9+ GCTR extends
 * CounterMode).
 * Default (JDK 9+): when the 32-bit counter cannot roll over within inLen,
 * hand everything to CounterMode.implCrypt (the CTR intrinsic candidate);
 * otherwise loop per block here with increment32.
 * -DJDK8: JDK 8's GCTR, always the per-block loop calling
 * AESCrypt.encryptBlock (the single-block intrinsic candidate).
 */
#include "jvm.h"

IMPORT("AESCrypt.implEncryptBlock")
void encryptBlock(const u32 *K, i32 klen, const u8 *in, i32 inlen, i32 inOfs, u8 *out, i32 outlen, i32 outOfs);
#ifndef JDK8
IMPORT("CounterMode.implCrypt")
i32 implCrypt(const u32 *K, i32 klen, u8 *counter, i32 clen, u8 *ectr, i32 elen, i32 *used, i32 ulen,
	      const u8 *in, i32 inlen, i32 inOff, i32 len, u8 *out, i32 outlen, i32 outOff);
#endif

typedef struct {
	const u32 *K;
	i32 klen;
	u8 *counter;
	const u8 *in;
	i32 inlen, inOfs, n, i;
	u8 *out;
	i32 outlen, outOfs;
	u8 ectr[16]; /* the local encryptedCntr = new byte[blockSize] */
} frame;

#if defined(JDK8) && PROFILE == 0
static i32 blocks(frame *f);
#endif

static i32 loop(frame *f)
{
#if defined(JDK8) && PROFILE == 0
	if (BLOCKS_ON)
		return blocks(f);
#endif
	i32 i = f->i;
	while (i < f->n) {
		SITE(1);
		CHECKED(encryptBlock(f->K, f->klen, f->counter, 16, 0, f->ectr, 16, 0));
		for (int j = 0; j < 16; j++)
			f->out[f->outOfs + 16 * i + j] = f->in[f->inOfs + 16 * i + j] ^ f->ectr[j];
		/* GaloisCounterMode.increment32 */
		for (int j = 15; j >= 12; j--) {
			if (BR(2, ++f->counter[j] != 0))
				break;
			LOOPCOUNT();
		}
		i++;
		BACKEDGE(0, f->i = i);
	}
	return 16 * f->n;
}

#if defined(JDK8) && PROFILE == 0
BLOCKS_IMPORT("AESCrypt.implEncryptBlock")
void encryptBlocks(const u32 *K, i32 klen, const u8 *in, i32 inlen, i32 inOfs, u8 *out, i32 outlen, i32 outOfs, i32 n);

#define BATCH 64

typedef u64 __attribute__((aligned(1))) u64u; /* possibly unaligned words */
typedef u32 __attribute__((aligned(1))) u32u;

/*
 * The loop above when its encryptBlock call is bound to the stub
 * (BLOCKS_ON): the same counters, block encryptions and xors, BATCH blocks
 * per host call; the xor goes 8 bytes at a time, as C2 vectorizes it,
 * where in and out are the same bytes or do not overlap. The counter and
 * the output are written once the batch's blocks are encrypted: a batch
 * whose first call throws leaves them as the loop above would, and the
 * calls of a batch differ only in their bytes, so no later one throws
 * where the first did not.
 */
static __attribute__((noinline)) i32 blocks(frame *f)
{
	u8 ctr[16 * BATCH], ectr[16 * BATCH];
	const u32 *K = f->K;
	i32 klen = f->klen, n = f->n;
	const u8 *in = f->in + f->inOfs;
	u8 *out = f->out + f->outOfs;
	int words = in == out || in + 16 * n <= out || out + 16 * n <= in;
	u64 prefix = *(const u64u *)f->counter;
	u32 mid = *(const u32u *)(f->counter + 8), c = be32(f->counter + 12);
	for (i32 i = f->i; i < n;) {
		i32 k = n - i < BATCH ? n - i : BATCH;
		for (i32 b = 0; b < k; b++) {
			*(u64u *)(ctr + 16 * b) = prefix;
			*(u32u *)(ctr + 16 * b + 8) = mid;
			put32(ctr + 16 * b + 12, c++); /* GaloisCounterMode.increment32 */
		}
		CHECKED(encryptBlocks(K, klen, ctr, 16 * k, 0, ectr, 16 * k, 0, k));
		put32(f->counter + 12, c);
		const u8 *src = in + 16 * i;
		u8 *dst = out + 16 * i;
		if (words) {
			for (i32 w = 0; w < 2 * k; w++)
				((u64u *)dst)[w] = ((const u64u *)src)[w] ^ ((const u64u *)ectr)[w];
		} else {
			for (i32 j = 0; j < 16 * k; j++)
				dst[j] = src[j] ^ ectr[j];
		}
		i += k;
	}
	return 16 * n;
}
#endif

EXPORT("GCTR.update")
i32 update(const u32 *K, i32 klen, u8 *counter, i32 clen, u8 *ectr, i32 elen, i32 *used, i32 ulen,
	   const u8 *in, i32 inlen, i32 inOfs, i32 len, u8 *out, i32 outlen, i32 outOfs)
{
	ENTRY();
	if (BR(0, len == 0))
		return 0;
	if (BR(1, (len & 15) != 0))
		THROW(EX_PROVIDER, len);
	if (counter == 0 || clen != 16)
		THROW(EX_AIOOBE, clen);
	if (!RANGE_OK(in, inlen, inOfs, len) || !RANGE_OK(out, outlen, outOfs, len))
		THROW(EX_AIOOBE, len);
#ifndef JDK8
	u64 left = ((u64)1 << 32) - be32(counter + 12); /* blocksUntilRollover */
	if (BR(3, (u64)(len / 16) < left)) {
		SITE(0);
		i32 r;
		CHECKED(r = implCrypt(K, klen, counter, clen, ectr, elen, used, ulen, in, inlen, inOfs, len, out, outlen, outOfs));
		return r;
	}
#endif
	frame *f = FRAME(frame);
	f->K = K;
	f->klen = klen;
	f->counter = counter;
	f->in = in;
	f->inlen = inlen;
	f->inOfs = inOfs;
	f->n = len / 16;
	f->i = 0;
	f->out = out;
	f->outlen = outlen;
	f->outOfs = outOfs;
	return loop(f);
}

EXPORT("GCTR.update$osr")
i32 update_osr(void)
{
	return loop(FRAME(frame));
}
