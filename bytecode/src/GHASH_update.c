/*
 * GHASH.update(byte[] in, int inOfs, int inLen) — the receiver's fields
 * first: state (long[2]) and subkeyHtbl (long[], H in [0], [1]).
 * Default build (JDK 8u and 9+): check and hand all whole blocks to the
 * processBlocks intrinsic candidate. -DJDK8: JDK 8 GA's loop, one
 * processBlock call per block. Both are wasm imports.
 */
#include "jvm.h"

#ifndef JDK8
IMPORT("GHASH.processBlocks")
void processBlocks(const u8 *data, i32 dlen, i32 inOfs, i32 blocks, u64 *st, i32 stlen, const u64 *subH, i32 hlen);

EXPORT("GHASH.update")
void update(u64 *st, i32 stlen, const u64 *subH, i32 hlen, const u8 *in, i32 inlen, i32 inOfs, i32 len)
{
	ENTRY();
	if (BR(0, len == 0))
		return;
	if (BR(1, (len & 15) != 0))
		THROWV(EX_PROVIDER, len);
	if (!RANGE_OK(in, inlen, inOfs, len))
		THROWV(EX_AIOOBE, inOfs);
	SITE(0);
	CHECKEDV(processBlocks(in, inlen, inOfs, len / 16, st, stlen, subH, hlen));
}
#else
IMPORT("GHASH.processBlock")
void processBlock(const u8 *data, i32 dlen, i32 ofs, u64 *st, i32 stlen, const u64 *subH, i32 hlen);

typedef struct {
	u64 *st;
	i32 stlen;
	const u64 *subH;
	i32 hlen;
	const u8 *in;
	i32 inlen, ofs, end;
} frame;

static void loop(frame *f)
{
	i32 ofs = f->ofs;
	while (ofs < f->end) {
		SITE(0);
		CHECKEDV(processBlock(f->in, f->inlen, ofs, f->st, f->stlen, f->subH, f->hlen));
		ofs += 16;
		BACKEDGEV(0, f->ofs = ofs);
	}
}

EXPORT("GHASH.update")
void update(u64 *st, i32 stlen, const u64 *subH, i32 hlen, const u8 *in, i32 inlen, i32 inOfs, i32 len)
{
	ENTRY();
	if (BR(0, len == 0))
		return;
	if (BR(1, (len & 15) != 0))
		THROWV(EX_PROVIDER, len);
	if (!RANGE_OK(in, inlen, inOfs, len))
		THROWV(EX_AIOOBE, inOfs);
	frame *f = FRAME(frame);
	f->st = st;
	f->stlen = stlen;
	f->subH = subH;
	f->hlen = hlen;
	f->in = in;
	f->inlen = inlen;
	f->ofs = inOfs;
	f->end = inOfs + len;
	loop(f);
}

EXPORT("GHASH.update$osr")
void update_osr(void)
{
	loop(FRAME(frame));
}
#endif
