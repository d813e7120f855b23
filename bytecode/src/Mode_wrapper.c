/*
 * The checking wrappers through which the provider reaches the mode
 * intrinsics: CipherBlockChaining.encrypt/decrypt and (without -DCBC)
 * ElectronicCodeBook.encrypt/decrypt. Each does the JDK's checks
 * (ArrayUtil.blockSizeCheck, nullAndBoundsCheck) and calls the
 * @IntrinsicCandidate impl method through a wasm import — the call site
 * at which C2 would place the intrinsic.
 */
#include "jvm.h"

#if defined(CBC) && !defined(DECRYPT)
#define NAME "CipherBlockChaining.encrypt"
#define CALLEE "CipherBlockChaining.implEncrypt"
#elif defined(CBC)
#define NAME "CipherBlockChaining.decrypt"
#define CALLEE "CipherBlockChaining.implDecrypt"
#elif !defined(DECRYPT)
#define NAME "ElectronicCodeBook.encrypt"
#define CALLEE "ElectronicCodeBook.implECBEncrypt"
#else
#define NAME "ElectronicCodeBook.decrypt"
#define CALLEE "ElectronicCodeBook.implECBDecrypt"
#endif

#ifdef CBC
#define RPARAM u8 *r, i32 rlen,
#define RARG r, rlen,
#else
#define RPARAM
#define RARG
#endif

IMPORT(CALLEE)
i32 impl(const u32 *K, i32 klen, RPARAM const u8 *in, i32 inlen, i32 inOfs, i32 len, u8 *out, i32 outlen, i32 outOfs);

EXPORT(NAME)
i32 wrapper(const u32 *K, i32 klen, RPARAM const u8 *in, i32 inlen, i32 inOfs, i32 len, u8 *out, i32 outlen, i32 outOfs)
{
	ENTRY();
	if (BR(0, len <= 0))
		return len;
	if (BR(1, (len & 15) != 0))
		THROW(EX_PROVIDER, len);
	if (!RANGE_OK(in, inlen, inOfs, len))
		THROW(EX_AIOOBE, inOfs);
	if (!RANGE_OK(out, outlen, outOfs, len))
		THROW(EX_AIOOBE, outOfs);
	SITE(0);
	i32 n;
	CHECKED(n = impl(K, klen, RARG in, inlen, inOfs, len, out, outlen, outOfs));
	return n;
}
