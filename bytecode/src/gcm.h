/*
 * gcm.h — the GCTR and GHASH objects as GaloisCounterMode's methods see
 * them: each object parameter is its fields, in order.
 *   GCTR  = K (int[]), counter (byte[16]), encryptedCounter (byte[16]), used (int[1])
 *   GHASH = state (long[2]), subkeyHtbl (long[])
 */
#ifndef GCM_H
#define GCM_H
#include "jvm.h"

#define GCTR_PARAMS const u32 *K, i32 klen, u8 *counter, i32 clen, u8 *ectr, i32 elen, i32 *used, i32 ulen
#define GCTR_ARGS K, klen, counter, clen, ectr, elen, used, ulen
#define GHASH_PARAMS u64 *st, i32 stlen, const u64 *subH, i32 hlen
#define GHASH_ARGS st, stlen, subH, hlen

/* SPLIT_LEN and TRIGGERLEN of GaloisCounterMode (JDK 18+). */
#define SPLIT_LEN (1 << 20)
#define TRIGGERLEN 65536

IMPORT("GCTR.update")
i32 gctr_update(GCTR_PARAMS, const u8 *in, i32 inlen, i32 inOfs, i32 len, u8 *out, i32 outlen, i32 outOfs);
IMPORT("GHASH.update")
void ghash_update(GHASH_PARAMS, const u8 *in, i32 inlen, i32 inOfs, i32 len);
#endif
