/*
 * CipherBlockChaining.implEncrypt(byte[] plain, int plainOffset, int plainLen,
 *                                 byte[] cipher, int cipherOffset)
 * and, with -DDECRYPT, implDecrypt(cipher, cipherOffset, cipherLen, plain,
 * plainOffset). The receiver's fields come first: the embedded AESCrypt's
 * expanded key K and the chaining register r (byte[16], updated in place).
 * Each block calls embeddedCipher.encryptBlock / decryptBlock, a wasm import
 * the runtime routes (the callee's code, or a stub when this caller is C2).
 * The data loop has an OSR entry: its state lives in the frame.
 */
#include "jvm.h"

#ifndef DECRYPT
#define NAME "CipherBlockChaining.implEncrypt"
#define CALLEE "AESCrypt.implEncryptBlock"
#else
#define NAME "CipherBlockChaining.implDecrypt"
#define CALLEE "AESCrypt.implDecryptBlock"
#endif

IMPORT(CALLEE)
void block(const u32 *K, i32 klen, const u8 *in, i32 inlen, i32 inOfs, u8 *out, i32 outlen, i32 outOfs);

typedef struct {
	const u32 *K;
	i32 klen;
	u8 *r;
	const u8 *in;
	i32 inlen, inOfs, len;
	u8 *out;
	i32 outlen, outOfs;
	i32 pos; /* loop variable: bytes done */
	u8 k[16]; /* the receiver's scratch block (CipherBlockChaining.k) */
	u8 save[16];
} frame;

static i32 loop(frame *f)
{
	i32 pos = f->pos;
	while (pos < f->len) {
#ifndef DECRYPT
		for (int i = 0; i < 16; i++)
			f->k[i] = f->in[f->inOfs + pos + i] ^ f->r[i];
		SITE(0);
		CHECKED(block(f->K, f->klen, f->k, 16, 0, f->out, f->outlen, f->outOfs + pos));
		for (int i = 0; i < 16; i++)
			f->r[i] = f->out[f->outOfs + pos + i];
#else
		/* keep the cipher block first: in-place decryption overwrites it */
		for (int i = 0; i < 16; i++)
			f->save[i] = f->in[f->inOfs + pos + i];
		SITE(0);
		CHECKED(block(f->K, f->klen, f->save, 16, 0, f->k, 16, 0));
		for (int i = 0; i < 16; i++) {
			f->out[f->outOfs + pos + i] = f->k[i] ^ f->r[i];
			f->r[i] = f->save[i];
		}
#endif
		pos += 16;
		BACKEDGE(0, f->pos = pos);
	}
	return f->len;
}

EXPORT(NAME)
i32 impl(const u32 *K, i32 klen, u8 *r, i32 rlen, const u8 *in, i32 inlen, i32 inOfs, i32 len,
	 u8 *out, i32 outlen, i32 outOfs)
{
	ENTRY();
	if (r == 0 || rlen != 16)
		THROW(EX_AIOOBE, rlen);
	if (BR(0, len <= 0))
		return len;
	if (!RANGE_OK(in, inlen, inOfs, len) || !RANGE_OK(out, outlen, outOfs, len))
		THROW(EX_AIOOBE, len);
	frame *f = FRAME(frame);
	f->K = K;
	f->klen = klen;
	f->r = r;
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
