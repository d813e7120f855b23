/*
 * GHASH.processBlocks(byte[] data, int inOfs, int blocks, long[] st,
 * long[] subH) — the @IntrinsicCandidate static loop: one processBlock per
 * 16-byte block (processBlock and blockMult are inlined here; see ghash.h).
 * The block loop has an OSR entry.
 */
#include "ghash.h"

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
	loop(f);
}

EXPORT("GHASH.processBlocks$osr")
void processBlocks_osr(void)
{
	loop(FRAME(frame));
}
