/*
 * ElectronicCodeBook.implECBEncrypt(byte[] in, int inOfs, int len, byte[] out,
 * int outOfs) and, with -DDECRYPT, implECBDecrypt: one embeddedCipher
 * encryptBlock/decryptBlock call per block (a wasm import). The receiver's
 * field first: the embedded AESCrypt's expanded key K.
 */
#include "jvm.h"

#ifndef DECRYPT
#define NAME "ElectronicCodeBook.implECBEncrypt"
#define CALLEE "AESCrypt.implEncryptBlock"
#else
#define NAME "ElectronicCodeBook.implECBDecrypt"
#define CALLEE "AESCrypt.implDecryptBlock"
#endif

IMPORT(CALLEE)
void block(const u32 *K, i32 klen, const u8 *in, i32 inlen, i32 inOfs, u8 *out, i32 outlen, i32 outOfs);

typedef struct {
	const u32 *K;
	i32 klen;
	const u8 *in;
	i32 inlen, inOfs, len;
	u8 *out;
	i32 outlen, outOfs;
	i32 pos;
} frame;

static i32 loop(frame *f)
{
	i32 pos = f->pos;
	while (pos < f->len) {
		SITE(0);
		CHECKED(block(f->K, f->klen, f->in, f->inlen, f->inOfs + pos, f->out, f->outlen, f->outOfs + pos));
		pos += 16;
		BACKEDGE(0, f->pos = pos);
	}
	return f->len;
}

EXPORT(NAME)
i32 impl(const u32 *K, i32 klen, const u8 *in, i32 inlen, i32 inOfs, i32 len, u8 *out, i32 outlen, i32 outOfs)
{
	ENTRY();
	if (BR(0, len <= 0))
		return len;
	if (!RANGE_OK(in, inlen, inOfs, len) || !RANGE_OK(out, outlen, outOfs, len))
		THROW(EX_AIOOBE, len);
	frame *f = FRAME(frame);
	f->K = K;
	f->klen = klen;
	f->in = in;
	f->inlen = inlen;
	f->inOfs = inOfs;
	f->len = len - (len & 15);
	f->out = out;
	f->outlen = outlen;
	f->outOfs = outOfs;
	f->pos = 0;
	return loop(f);
}

EXPORT(NAME "$osr")
i32 impl_osr(void)
{
	return loop(FRAME(frame));
}
