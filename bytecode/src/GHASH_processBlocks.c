/*
 * GHASH.processBlocks(byte[] data, int inOfs, int blocks, long[] st,
 * long[] subH) — the @IntrinsicCandidate static loop: one processBlock per
 * 16-byte block. Default build (JDK 8u): processBlock and blockMult inlined
 * (ghash.h). -DCALLS (JDK 17+): processBlock is a call, a wasm import, as in
 * the JDK's bytecode, so each callee keeps its own counters. The block loop
 * has an OSR entry.
 */
#ifndef CALLS
#include "ghash.h"
#else
#include "jvm.h"

IMPORT("GHASH.processBlock")
void processBlock(const u8 *data, i32 dlen, i32 ofs, u64 *st, i32 stlen, const u64 *subH, i32 hlen);
#endif

#ifndef CALLS
typedef struct {
	const u8 *data;
	i32 ofs, blocks;
	u64 *st;
	const u64 *subH;
} frame;

static void loop(frame *f)
{
	i32 ofs = f->ofs, blocks = f->blocks;
	u64 st[2] = {f->st[0], f->st[1]};
	while (blocks > 0) {
		processBlock(f->data + ofs, st, f->subH);
		blocks--;
		ofs += 16;
		BACKEDGEV(0, (f->ofs = ofs, f->blocks = blocks, f->st[0] = st[0], f->st[1] = st[1]));
	}
	f->st[0] = st[0];
	f->st[1] = st[1];
}
#else
typedef struct {
	const u8 *data;
	i32 dlen, ofs, blocks;
	u64 *st;
	i32 stlen;
	const u64 *subH;
	i32 hlen;
} frame;

static void loop(frame *f)
{
	i32 ofs = f->ofs, blocks = f->blocks;
	while (blocks > 0) {
		SITE(0);
		CHECKEDV(processBlock(f->data, f->dlen, ofs, f->st, f->stlen, f->subH, f->hlen));
		blocks--;
		ofs += 16;
		BACKEDGEV(0, (f->ofs = ofs, f->blocks = blocks));
	}
}
#endif

EXPORT("GHASH.processBlocks")
void processBlocks(const u8 *data, i32 dlen, i32 inOfs, i32 blocks, u64 *st, i32 stlen, const u64 *subH, i32 hlen)
{
	ENTRY();
	if (st == 0 || stlen < 2 || subH == 0 || hlen < 2)
		THROWV(EX_AIOOBE, 0);
	if (BR(0, blocks <= 0))
		return;
	if (blocks > 0x7ffffff || !RANGE_OK(data, dlen, inOfs, blocks * 16))
		THROWV(EX_AIOOBE, inOfs);
	frame *f = FRAME(frame);
	f->data = data;
	f->ofs = inOfs;
	f->blocks = blocks;
	f->st = st;
	f->subH = subH;
#ifdef CALLS
	f->dlen = dlen;
	f->stlen = stlen;
	f->hlen = hlen;
#endif
	loop(f);
}

EXPORT("GHASH.processBlocks$osr")
void processBlocks_osr(void)
{
	loop(FRAME(frame));
}
