package bytecode

// The method table: every reference method, the JDK profiles it exists in,
// its Java identity and its wasm signature. One row per (Java method, body);
// a method whose body differs between JDK releases has one row per body.
// JavaSize is each release's Java bytecode size (see SizeSources); the wasm
// body sizes and the imports are read from the modules themselves (see
// table.go).

import (
	"slices"
	"strings"
	"sync"

	"github.com/jitsim/jitsim/jdk"
)

// Receiver fields and object parameters, expanded in field order.
var (
	pK        = Param{"K", Ints, In} // AESCrypt.K (sessionK[0] or [1])
	pCounter  = Param{"counter", Bytes, InOut}
	pEncCtr   = Param{"encryptedCounter", Bytes, InOut}
	pUsed     = Param{"used", Ints, InOut} // int field, boxed so the update is visible
	pState    = Param{"state", Longs, InOut}
	pSubkeyH  = Param{"subkeyHtbl", Longs, In}
	gctrObj   = []Param{pK, pCounter, pEncCtr, pUsed}
	ghashObj  = []Param{pState, pSubkeyH}
	blockSig  = []Param{pK, {"in", Bytes, In}, {"inOffset", Int, In}, {"out", Bytes, Out}, {"outOffset", Int, In}}
	cryptSig  = []Param{{"in", Bytes, In}, {"inOfs", Int, In}, {"len", Int, In}, {"out", Bytes, Out}, {"outOfs", Int, In}}
	ghashData = []Param{{"in", Bytes, In}, {"inOfs", Int, In}, {"inLen", Int, In}}
	gcmSig    = cat([]Param{{"in", Bytes, In}, {"inOfs", Int, In}, {"inLen", Int, In}, {"ct", Bytes, In},
		{"ctOfs", Int, In}, {"out", Bytes, Out}, {"outOfs", Int, In}}, gctrObj, ghashObj)
)

func cat(ps ...[]Param) []Param {
	var out []Param
	for _, p := range ps {
		out = append(out, p...)
	}
	return out
}

// Release sets the rows name more than once.
var (
	since17  = jdk.Since(jdk.R17)  // JDK 9+ bodies
	before17 = jdk.Before(jdk.R17) // JDK 8 and 8u bodies
)

const provider = "com.sun.crypto.provider."

// sizes is the JavaSize column: Java bytecode size by JDK profile.
type sizes = map[jdk.Release]int

// SizeSources says, per JDK profile, where the JavaSize column's numbers
// come from. Each is the code_length of the method's Code attribute
// (JVMS 4.7.3), which HotSpot's Method::code_size returns and
// PrintCompilation prints as "(N bytes)".
var SizeSources = map[jdk.Release]string{
	jdk.R8: "measured on a rebuild: the jdk8-b132 (JDK 8 GA) sources of com.sun.crypto.provider compiled by javac 17 " +
		"with --release 8 (JDK 8's own javac may differ by a few bytes; methods whose source 8u and 17 share come out " +
		"identical to 17's class files: AESCrypt.implEncryptBlock 953, implDecryptBlock 3852, mul4 181, " +
		"CipherBlockChaining.implEncrypt 104, implDecrypt 102, GHASH.processBlocks 26)",
	jdk.R8u: "measured on a rebuild, as for 8, of an 8u252-based tree with the JDK-8073108 GHASH backport",
	jdk.R17: "measured: the class files of OpenJDK 17.0.15's java.base (the sizes its PrintCompilation prints)",
	jdk.R21: "NOT measured (no JDK 21 or its sources here): Temurin 25.0.3's sizes stand in",
	jdk.R22: "NOT measured (no JDK 22 or its class files here): Temurin 25.0.3's sizes stand in",
	jdk.R25: "measured: the class files of Temurin 25.0.3's java.base (the sizes its PrintCompilation prints)",
}

// SizeMeasured reports whether JDK profile r's JavaSize numbers were
// measured (see SizeSources); JDK 21's and 22's were not.
func SizeMeasured(r jdk.Release) bool { return strings.HasPrefix(SizeSources[r], "measured") }

// calls is the Calls column: per import key, the call's bytecode index by
// observed release (17 and 25; see CallSources).
type calls = map[string]sites

// Call sites the model folds: its methods call the block and counter-mode
// bodies directly, where the real classes go through a small wrapper. The
// "@ N" HotSpot prints for the intrinsic is the wrapper's call, so these
// are those:
//   - AESCrypt.encryptBlock/decryptBlock (10 bytes) call implEncryptBlock /
//     implDecryptBlock at bci 6 (17 and 25); the modes reach them through
//     SymmetricCipher.encryptBlock (CounterMode.implCrypt @ 35,
//     CipherBlockChaining.implEncrypt @ 64, GCTR.update @ 125 on 17).
//   - CounterMode.crypt calls implCrypt at bci 28 on 17 and at 44 and 86 on
//     25 (two sites; 86 is the one PrintIntrinsics shows for a 16 KiB
//     loop). GCTR.update reaches it via GCTR.encrypt (@ 204 on 17) and
//     CounterMode.encrypt (@ 8), then crypt.
var (
	viaBlock = sites{jdk.R17: 6, jdk.R25: 6}
	// The loops of independent block calls (Method.Stream): CounterMode's loop runs once per
	// byte and encrypts the next counter every 16th trip (implCrypt on 17, crypt on 8u);
	// JDK 8's GCTR.update, ECB and CBC decryption once per block. JDK 9+'s GCTR.update hands
	// its range to CounterMode.implCrypt; its own per-block loop runs only where the 32-bit
	// counter would wrap, and is not marked.
	streamEncrypt16 = &Stream{Callee: "AESCrypt.implEncryptBlock", Trips: 16}
	streamEncrypt1  = &Stream{Callee: "AESCrypt.implEncryptBlock", Trips: 1}
	streamDecrypt1  = &Stream{Callee: "AESCrypt.implDecryptBlock", Trips: 1}
	viaCrypt        = sites{jdk.R17: 28, jdk.R25: 86}
)

// rows is the one method table. Key is the import/export name; Module the
// wasm module stem under wasm/.
var rows = []Method{
	{Key: "AESCrypt.makeSessionKey", Module: "AESCrypt.makeSessionKey", Profiles: jdk.AllReleases,
		JavaSize: sizes{jdk.R8: 790, jdk.R8u: 790, jdk.R17: 899, jdk.R21: 867, jdk.R22: 867, jdk.R25: 867},
		Class:    provider + "AESCrypt", Name: "makeSessionKey", Descriptor: "([B)V",
		Params: []Param{{"k", Bytes, In}, {"Ke", Ints, Out}, {"Kd", Ints, Out}}, Result: Int},

	{Key: "AESCrypt.implEncryptBlock", Module: "AESCrypt.implEncryptBlock", Profiles: since17,
		JavaSize: sizes{jdk.R17: 953, jdk.R21: 947, jdk.R22: 947, jdk.R25: 947}, Intrinsic: "_aescrypt_encryptBlock",
		Class: provider + "AESCrypt", Name: "implEncryptBlock", Descriptor: "([BI[BI)V", Params: blockSig},
	{Key: "AESCrypt.implEncryptBlock", Module: "AESCrypt.implEncryptBlock", Profiles: before17,
		JavaSize: sizes{jdk.R8: 953, jdk.R8u: 953}, SizeNote: "late 8u: the body is implEncryptBlock (953 bytes); encryptBlock is its 10-byte checking wrapper", Intrinsic: "_aescrypt_encryptBlock",
		Class: provider + "AESCrypt", Name: "encryptBlock", Descriptor: "([BI[BI)V", Params: blockSig},
	{Key: "AESCrypt.implDecryptBlock", Module: "AESCrypt.implDecryptBlock", Profiles: since17,
		JavaSize: sizes{jdk.R17: 3852, jdk.R21: 3849, jdk.R22: 3849, jdk.R25: 3849}, Intrinsic: "_aescrypt_decryptBlock",
		Class: provider + "AESCrypt", Name: "implDecryptBlock", Descriptor: "([BI[BI)V", Params: blockSig},
	{Key: "AESCrypt.implDecryptBlock", Module: "AESCrypt.implDecryptBlock", Profiles: before17,
		JavaSize: sizes{jdk.R8: 3852, jdk.R8u: 3852}, SizeNote: "late 8u: the body is implDecryptBlock (3852 bytes); decryptBlock is its 10-byte checking wrapper", Intrinsic: "_aescrypt_decryptBlock",
		Class: provider + "AESCrypt", Name: "decryptBlock", Descriptor: "([BI[BI)V", Params: blockSig},

	{Key: "CipherBlockChaining.implEncrypt", Module: "CipherBlockChaining.implEncrypt", Profiles: since17,
		Loop:      sites{jdk.R17: 5, jdk.R25: 5},
		Calls:     calls{"AESCrypt.implEncryptBlock": viaBlock},
		JavaSize:  sizes{jdk.R17: 104, jdk.R21: 104, jdk.R22: 104, jdk.R25: 104},
		Intrinsic: "_cipherBlockChaining_encryptAESCrypt",
		Class:     provider + "CipherBlockChaining", Name: "implEncrypt", Descriptor: "([BII[BI)I",
		Params: cat([]Param{pK, {"r", Bytes, InOut}}, cryptSig), Result: Int},
	{Key: "CipherBlockChaining.implEncrypt", Module: "CipherBlockChaining.implEncrypt", Profiles: before17,
		JavaSize: sizes{jdk.R8: 104, jdk.R8u: 104}, SizeNote: "late 8u: the body is implEncrypt (104 bytes); encrypt is its 40-byte checking wrapper",
		Intrinsic: "_cipherBlockChaining_encryptAESCrypt",
		Class:     provider + "CipherBlockChaining", Name: "encrypt", Descriptor: "([BII[BI)I",
		Params: cat([]Param{pK, {"r", Bytes, InOut}}, cryptSig), Result: Int},
	{Key: "CipherBlockChaining.implDecrypt", Module: "CipherBlockChaining.implDecrypt", Stream: streamDecrypt1, Profiles: since17,
		Loop:      sites{jdk.R17: 5, jdk.R25: 5},
		Calls:     calls{"AESCrypt.implDecryptBlock": viaBlock},
		JavaSize:  sizes{jdk.R17: 102, jdk.R21: 102, jdk.R22: 102, jdk.R25: 102},
		Intrinsic: "_cipherBlockChaining_decryptAESCrypt",
		Class:     provider + "CipherBlockChaining", Name: "implDecrypt", Descriptor: "([BII[BI)I",
		Params: cat([]Param{pK, {"r", Bytes, InOut}}, cryptSig), Result: Int},
	{Key: "CipherBlockChaining.implDecrypt", Module: "CipherBlockChaining.implDecrypt", Stream: streamDecrypt1, Profiles: before17,
		JavaSize: sizes{jdk.R8: 102, jdk.R8u: 102}, SizeNote: "late 8u: the body is implDecrypt (102 bytes); decrypt is its 40-byte checking wrapper",
		Intrinsic: "_cipherBlockChaining_decryptAESCrypt",
		Class:     provider + "CipherBlockChaining", Name: "decrypt", Descriptor: "([BII[BI)I",
		Params: cat([]Param{pK, {"r", Bytes, InOut}}, cryptSig), Result: Int},
	{Key: "CipherBlockChaining.encrypt", Module: "CipherBlockChaining.encrypt", Delegates: true, Profiles: since17,
		Calls:    calls{"CipherBlockChaining.implEncrypt": {jdk.R17: 36, jdk.R25: 94}},
		JavaSize: sizes{jdk.R17: 40, jdk.R21: 103, jdk.R22: 103, jdk.R25: 103},
		Class:    provider + "CipherBlockChaining", Name: "encrypt", Descriptor: "([BII[BI)I",
		Params: cat([]Param{pK, {"r", Bytes, InOut}}, cryptSig), Result: Int},
	{Key: "CipherBlockChaining.decrypt", Module: "CipherBlockChaining.decrypt", Delegates: true, Profiles: since17,
		Calls:    calls{"CipherBlockChaining.implDecrypt": {jdk.R17: 36, jdk.R25: 94}},
		JavaSize: sizes{jdk.R17: 40, jdk.R21: 103, jdk.R22: 103, jdk.R25: 103},
		Class:    provider + "CipherBlockChaining", Name: "decrypt", Descriptor: "([BII[BI)I",
		Params: cat([]Param{pK, {"r", Bytes, InOut}}, cryptSig), Result: Int},

	{Key: "ElectronicCodeBook.implECBEncrypt", Module: "ElectronicCodeBook.implECBEncrypt", Stream: streamEncrypt1, Delegates: true, Profiles: since17,
		Loop:      sites{jdk.R17: 3, jdk.R25: 3},
		Calls:     calls{"AESCrypt.implEncryptBlock": viaBlock},
		JavaSize:  sizes{jdk.R17: 55, jdk.R21: 55, jdk.R22: 55, jdk.R25: 55},
		Intrinsic: "_electronicCodeBook_encryptAESCrypt",
		Class:     provider + "ElectronicCodeBook", Name: "implECBEncrypt", Descriptor: "([BII[BI)I",
		Params: cat([]Param{pK}, cryptSig), Result: Int},
	{Key: "ElectronicCodeBook.implECBEncrypt", Module: "ElectronicCodeBook.implECBEncrypt", Stream: streamEncrypt1, Delegates: true, Profiles: before17,
		JavaSize: sizes{jdk.R8: 55, jdk.R8u: 77},
		Class:    provider + "ElectronicCodeBook", Name: "encrypt", Descriptor: "([BII[BI)I",
		Params: cat([]Param{pK}, cryptSig), Result: Int},
	{Key: "ElectronicCodeBook.implECBDecrypt", Module: "ElectronicCodeBook.implECBDecrypt", Stream: streamDecrypt1, Delegates: true, Profiles: since17,
		Loop:      sites{jdk.R17: 3, jdk.R25: 3},
		Calls:     calls{"AESCrypt.implDecryptBlock": viaBlock},
		JavaSize:  sizes{jdk.R17: 55, jdk.R21: 55, jdk.R22: 55, jdk.R25: 55},
		Intrinsic: "_electronicCodeBook_decryptAESCrypt",
		Class:     provider + "ElectronicCodeBook", Name: "implECBDecrypt", Descriptor: "([BII[BI)I",
		Params: cat([]Param{pK}, cryptSig), Result: Int},
	{Key: "ElectronicCodeBook.implECBDecrypt", Module: "ElectronicCodeBook.implECBDecrypt", Stream: streamDecrypt1, Delegates: true, Profiles: before17,
		JavaSize: sizes{jdk.R8: 55, jdk.R8u: 77},
		Class:    provider + "ElectronicCodeBook", Name: "decrypt", Descriptor: "([BII[BI)I",
		Params: cat([]Param{pK}, cryptSig), Result: Int},
	{Key: "ElectronicCodeBook.encrypt", Module: "ElectronicCodeBook.encrypt", Delegates: true, Profiles: since17,
		Calls:    calls{"ElectronicCodeBook.implECBEncrypt": {jdk.R17: 30, jdk.R25: 30}},
		JavaSize: sizes{jdk.R17: 34, jdk.R21: 34, jdk.R22: 34, jdk.R25: 34},
		Class:    provider + "ElectronicCodeBook", Name: "encrypt", Descriptor: "([BII[BI)I",
		Params: cat([]Param{pK}, cryptSig), Result: Int},
	{Key: "ElectronicCodeBook.decrypt", Module: "ElectronicCodeBook.decrypt", Delegates: true, Profiles: since17,
		Calls:    calls{"ElectronicCodeBook.implECBDecrypt": {jdk.R17: 30, jdk.R25: 30}},
		JavaSize: sizes{jdk.R17: 34, jdk.R21: 34, jdk.R22: 34, jdk.R25: 34},
		Class:    provider + "ElectronicCodeBook", Name: "decrypt", Descriptor: "([BII[BI)I",
		Params: cat([]Param{pK}, cryptSig), Result: Int},

	{Key: "CounterMode.implCrypt", Module: "CounterMode.implCrypt", Stream: streamEncrypt16, Profiles: since17,
		Loop:     sites{jdk.R17: 3, jdk.R25: 3},
		Calls:    calls{"AESCrypt.implEncryptBlock": viaBlock},
		JavaSize: sizes{jdk.R17: 88, jdk.R21: 88, jdk.R22: 88, jdk.R25: 88}, Intrinsic: "_counterMode_AESCrypt",
		Class: provider + "CounterMode", Name: "implCrypt", Descriptor: "([BII[BI)I",
		Params: cat(gctrObj, cryptSig), Result: Int},
	{Key: "CounterMode.implCrypt", Module: "CounterMode.implCrypt", Stream: streamEncrypt16, Profiles: before17,
		JavaSize: sizes{jdk.R8: 88, jdk.R8u: 108},
		Class:    provider + "CounterMode", Name: "crypt", Descriptor: "([BII[BI)I",
		Params: cat(gctrObj, cryptSig), Result: Int},

	{Key: "CounterMode.crypt", Module: "CounterMode.crypt", Delegates: true, Profiles: since17,
		Calls:    calls{"CounterMode.implCrypt": viaCrypt},
		JavaSize: sizes{jdk.R17: 32, jdk.R21: 95, jdk.R22: 95, jdk.R25: 95},
		Class:    provider + "CounterMode", Name: "crypt", Descriptor: "([BII[BI)I",
		Params: cat(gctrObj, cryptSig), Result: Int},

	// JDK 9+: processBlocks calls processBlock per block, which calls
	// blockMult (testdata/javap), each a method with its own counters, so
	// HotSpot compiles blockMult first while processBlocks still
	// interprets. JDK 8u's bodies keep both callees inlined (not recorded).
	{Key: "GHASH.processBlocks", Module: "GHASH.processBlocks.calls", Delegates: true, Profiles: since17,
		Loop:     sites{jdk.R17: 3, jdk.R25: 3},
		Calls:    calls{"GHASH.processBlock": {jdk.R17: 13, jdk.R25: 13}},
		JavaSize: sizes{jdk.R17: 26, jdk.R21: 26, jdk.R22: 26, jdk.R25: 26}, Intrinsic: "_ghash_processBlocks",
		Class: provider + "GHASH", Name: "processBlocks", Descriptor: "([BII[J[J)V", Static: true,
		Params: []Param{{"data", Bytes, In}, {"inOfs", Int, In}, {"blocks", Int, In}, pState, pSubkeyH}},
	{Key: "GHASH.processBlocks", Module: "GHASH.processBlocks", Profiles: jdk.Of(jdk.R8u),
		JavaSize: sizes{jdk.R8u: 26}, Intrinsic: "_ghash_processBlocks",
		Class: provider + "GHASH", Name: "processBlocks", Descriptor: "([BII[J[J)V", Static: true,
		Params: []Param{{"data", Bytes, In}, {"inOfs", Int, In}, {"blocks", Int, In}, pState, pSubkeyH}},
	{Key: "GHASH.processBlock", Module: "GHASH.processBlock.calls", Delegates: true, Profiles: since17,
		Calls:    calls{"GHASH.blockMult": {jdk.R17: 33, jdk.R25: 33}},
		JavaSize: sizes{jdk.R17: 37, jdk.R21: 37, jdk.R22: 37, jdk.R25: 37},
		Class:    provider + "GHASH", Name: "processBlock", Descriptor: "([BI[J[J)V", Static: true,
		Params: []Param{{"data", Bytes, In}, {"ofs", Int, In}, pState, pSubkeyH}},
	{Key: "GHASH.processBlock", Module: "GHASH.processBlock", Profiles: before17,
		JavaSize: sizes{jdk.R8: 67, jdk.R8u: 31}, SizeNote: "JDK 8 GA: GHASH.processBlock([BI)V, the one method of that name (state in fields, not arrays)",
		Class: provider + "GHASH", Name: "processBlock", Descriptor: "([BI[J[J)V", Static: true,
		Params: []Param{{"data", Bytes, In}, {"ofs", Int, In}, pState, pSubkeyH}},
	{Key: "GHASH.blockMult", Module: "GHASH.blockMult", Profiles: since17,
		Loop:     sites{jdk.R17: 23, jdk.R25: 23},
		JavaSize: sizes{jdk.R17: 245, jdk.R21: 245, jdk.R22: 245, jdk.R25: 245},
		Class:    provider + "GHASH", Name: "blockMult", Descriptor: "([J[J)V", Static: true,
		Params: []Param{pState, pSubkeyH}},
	{Key: "GHASH.update", Module: "GHASH.update", Delegates: true, Profiles: since17,
		Calls:    calls{"GHASH.processBlocks": {jdk.R17: 44, jdk.R25: 44}},
		JavaSize: sizes{jdk.R17: 50, jdk.R21: 50, jdk.R22: 50, jdk.R25: 50},
		// JDK 9+ returns the bytes processed (testdata/javap); the body's
		// wasm result stays void, as no caller reads it.
		Class: provider + "GHASH", Name: "update", Descriptor: "([BII)I", Params: cat(ghashObj, ghashData)},
	{Key: "GHASH.update", Module: "GHASH.update", Delegates: true, Profiles: jdk.Of(jdk.R8u),
		JavaSize: sizes{jdk.R8u: 37},
		Class:    provider + "GHASH", Name: "update", Descriptor: "([BII)V", Params: cat(ghashObj, ghashData)},
	{Key: "GHASH.update", Module: "GHASH.update.jdk8", Delegates: true, Profiles: jdk.Of(jdk.R8),
		JavaSize: sizes{jdk.R8: 60},
		Class:    provider + "GHASH", Name: "update", Descriptor: "([BII)V", Params: cat(ghashObj, ghashData)},
	{Key: "GHASH.doFinal", Module: "GHASH.doFinal", Delegates: true, Profiles: jdk.AllReleases,
		Calls:    calls{"GHASH.update": {jdk.R17: 14, jdk.R25: 14}, "GHASH.processBlock": {jdk.R17: 13, jdk.R25: 13}},
		JavaSize: sizes{jdk.R8: 52, jdk.R8u: 52, jdk.R17: 52, jdk.R21: 52, jdk.R22: 52, jdk.R25: 52}, SizeNote: "JDK 8 and 8u have no GHASH.doFinal (GaloisCounterMode calls update, then digest): the JDK 17 size stands in",
		Class: provider + "GHASH", Name: "doFinal", Descriptor: "([BII)I", Params: cat(ghashObj, ghashData), Result: Int},

	{Key: "GCTR.update", Module: "GCTR.update", Delegates: true, Profiles: since17,
		Loop:     sites{jdk.R17: 104, jdk.R25: 104}, /* the per-block loop; 131 is its inner byte loop */
		Calls:    calls{"CounterMode.implCrypt": viaCrypt, "AESCrypt.implEncryptBlock": viaBlock},
		JavaSize: sizes{jdk.R17: 208, jdk.R21: 208, jdk.R22: 208, jdk.R25: 208},
		Class:    provider + "GCTR", Name: "update", Descriptor: "([BII[BI)I", Params: cat(gctrObj, cryptSig), Result: Int},
	{Key: "GCTR.update", Module: "GCTR.update.jdk8", Stream: streamEncrypt1, Profiles: before17,
		JavaSize: sizes{jdk.R8: 158, jdk.R8u: 158},
		Class:    provider + "GCTR", Name: "update", Descriptor: "([BII[BI)I", Params: cat(gctrObj, cryptSig), Result: Int},
	{Key: "GCTR.doFinal", Module: "GCTR.doFinal", Delegates: true, Profiles: jdk.AllReleases,
		Calls:    calls{"GCTR.update": {jdk.R17: 29, jdk.R25: 29}, "AESCrypt.implEncryptBlock": viaBlock},
		JavaSize: sizes{jdk.R8: 130, jdk.R8u: 130, jdk.R17: 106, jdk.R21: 106, jdk.R22: 106, jdk.R25: 106},
		Class:    provider + "GCTR", Name: "doFinal", Descriptor: "([BII[BI)I", Params: cat(gctrObj, cryptSig), Result: Int},

	{Key: "GaloisCounterMode.implGCMCrypt0", Module: "GaloisCounterMode.implGCMCrypt0.p7680", Delegates: true, Profiles: jdk.Of(jdk.R21, jdk.R22),
		JavaSize:  sizes{jdk.R21: 136, jdk.R22: 136},
		Intrinsic: "_galoisCounterMode_AESCrypt", Static: true,
		Class: provider + "GaloisCounterMode", Name: "implGCMCrypt0",
		Descriptor: "([BII[BI[BILcom/sun/crypto/provider/GCTR;Lcom/sun/crypto/provider/GHASH;)I", Params: gcmSig, Result: Int},
	{Key: "GaloisCounterMode.implGCMCrypt0", Module: "GaloisCounterMode.implGCMCrypt0.p512", Delegates: true, Profiles: jdk.Of(jdk.R25),
		Calls:     calls{"GCTR.update": {jdk.R25: 62}, "GHASH.update": {jdk.R25: 75}},
		JavaSize:  sizes{jdk.R25: 136},
		Intrinsic: "_galoisCounterMode_AESCrypt", Static: true,
		Class: provider + "GaloisCounterMode", Name: "implGCMCrypt0",
		Descriptor: "([BII[BI[BILcom/sun/crypto/provider/GCTR;Lcom/sun/crypto/provider/GHASH;)I", Params: gcmSig, Result: Int},
	{Key: "GaloisCounterMode.implGCMCrypt", Module: "GaloisCounterMode.implGCMCrypt", Delegates: true, Profiles: jdk.Since(jdk.R21), Static: true,
		Calls:    calls{"GaloisCounterMode.implGCMCrypt0": {jdk.R25: 134}, "GHASH.update": {jdk.R25: 82}, "GCTR.update": {jdk.R25: 100}},
		JavaSize: sizes{jdk.R21: 143, jdk.R22: 143, jdk.R25: 143},
		Class:    provider + "GaloisCounterMode", Name: "implGCMCrypt",
		Descriptor: "([BII[BI[BILcom/sun/crypto/provider/GCTR;Lcom/sun/crypto/provider/GHASH;)I", Params: gcmSig, Result: Int},

	// GCMEngine.doLastBlock is the array path of a GCM doFinal after the
	// engine's buffering: in each release the method that runs it for
	// encryption (testdata/javap; the real PrintCompilation prints it).
	// JDK 17: GCTRGHASH.doFinal (33 bytes); JDK 18+: EncryptOp.doFinal (80
	// bytes on 25). Decryption runs DecryptOp.doFinal on 18+ (89 bytes on
	// 25: implGCMCrypt @ 39, GHASH.doFinal @ 58, GCTR.doFinal @ 84) and two
	// passes on 17 and before (jce's gcmVerifyFirst); one row stands for
	// both, with the encryption side's identity.
	{Key: "GaloisCounterMode.GCMEngine.doLastBlock", Module: "GCMEngine.doLastBlock", Delegates: true, Profiles: before17,
		JavaSize: sizes{jdk.R8: 114, jdk.R8u: 114}, SizeNote: "JDK 8/8u: GaloisCounterMode.doLastBlock([BII[BIZ)V — no release has this descriptor",
		Class: provider + "GaloisCounterMode$GCMEngine", Name: "doLastBlock", Descriptor: "(Z[BII[BI)I",
		Params: cat([]Param{{"encryption", Bool, In}}, cryptSig, gctrObj, ghashObj), Result: Int},
	{Key: "GaloisCounterMode.GCMEngine.doLastBlock", Module: "GCMEngine.doLastBlock", Delegates: true, Profiles: jdk.Of(jdk.R17),
		Calls:    calls{"GCTR.doFinal": {jdk.R17: 11}, "GHASH.doFinal": {jdk.R17: 26}},
		JavaSize: sizes{jdk.R17: 33},
		Class:    provider + "GaloisCounterMode$GCTRGHASH", Name: "doFinal", Descriptor: "([BII[BI)I",
		Params: cat([]Param{{"encryption", Bool, In}}, cryptSig, gctrObj, ghashObj), Result: Int},
	{Key: "GaloisCounterMode.GCMEngine.doLastBlock", Module: "GCMEngine.doLastBlock.p7680", Delegates: true, Profiles: jdk.Of(jdk.R21, jdk.R22),
		JavaSize: sizes{jdk.R21: 80, jdk.R22: 80}, SizeNote: "JDK 25's EncryptOp.doFinal size stands in (JDK 21 and 22 not measured)",
		Class: provider + "GaloisCounterMode$EncryptOp", Name: "doFinal", Descriptor: "([BII[BI)I",
		Params: cat([]Param{{"encryption", Bool, In}}, cryptSig, gctrObj, ghashObj), Result: Int},
	{Key: "GaloisCounterMode.GCMEngine.doLastBlock", Module: "GCMEngine.doLastBlock.p512", Delegates: true, Profiles: jdk.Of(jdk.R25),
		Calls:    calls{"GaloisCounterMode.implGCMCrypt": {jdk.R25: 29}, "GCTR.doFinal": {jdk.R25: 60}, "GHASH.doFinal": {jdk.R25: 75}},
		JavaSize: sizes{jdk.R25: 80},
		Class:    provider + "GaloisCounterMode$EncryptOp", Name: "doFinal", Descriptor: "([BII[BI)I",
		Params: cat([]Param{{"encryption", Bool, In}}, cryptSig, gctrObj, ghashObj), Result: Int},
}

// Rows returns a copy of the method table's rows as written, without
// anything read from the modules (Size, Imports, OSR, Clinit are zero). It
// is for the build's generators, which run before the modules exist.
func Rows() []Method {
	out := make([]Method, len(rows))
	copy(out, rows)
	return out
}

// InlineSlot returns the slot of method key k in the inline area: its index
// in the sorted list of distinct keys of the table (the same numbering the
// inline builds' shims use).
func InlineSlot(k string) (int, bool) {
	i, ok := slices.BinarySearch(slotKeys(), k)
	return i, ok
}

// SlotKey returns the method key of inline slot s.
func SlotKey(s int) (string, bool) {
	keys := slotKeys()
	if s < 0 || s >= len(keys) {
		return "", false
	}
	return keys[s], true
}

var slotKeys = sync.OnceValue(func() []string { return sortedKeys(rows) })

// sortedKeys returns the distinct keys of rs, sorted.
func sortedKeys(rs []Method) []string {
	var ks []string
	for _, m := range rs {
		if !slices.Contains(ks, m.Key) {
			ks = append(ks, m.Key)
		}
	}
	slices.Sort(ks)
	return ks
}

// SortedKeys returns the distinct keys of rows, sorted: the inline slot
// numbering (generators pass [Rows]).
func SortedKeys(rs []Method) []string { return sortedKeys(rs) }
