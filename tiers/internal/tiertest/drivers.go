package tiertest

import (
	"encoding/binary"
	"fmt"

	"github.com/jitsim/jitsim/bytecode"
)

// ExpandKey runs AESCrypt.makeSessionKey: encryption and decryption schedules.
func (e *Env) ExpandKey(key []byte) (ke, kd []uint32, err error) {
	n := 4 * (len(key)/4 + 7)
	if len(key) != 16 && len(key) != 24 && len(key) != 32 {
		n = 44
	}
	ke, kd = make([]uint32, n), make([]uint32, n)
	rounds, err := e.Call("AESCrypt.makeSessionKey", bytecode.BytesArg(key), bytecode.IntsArg(ke), bytecode.IntsArg(kd))
	if err != nil {
		return nil, nil, err
	}
	if int(rounds) != n/4-1 {
		return nil, nil, fmt.Errorf("makeSessionKey returned %d rounds for a %d-byte key", rounds, len(key))
	}
	return ke, kd, nil
}

// Block runs AESCrypt.implEncryptBlock (or implDecryptBlock) on one block.
func (e *Env) Block(decrypt bool, k []uint32, in []byte, inOfs int, out []byte, outOfs int) error {
	key := "AESCrypt.implEncryptBlock"
	if decrypt {
		key = "AESCrypt.implDecryptBlock"
	}
	_, err := e.Call(key, bytecode.IntsArg(k), bytecode.BytesArg(in), bytecode.IntArg(inOfs), bytecode.BytesArg(out), bytecode.IntArg(outOfs))
	return err
}

// CBC runs CipherBlockChaining.encrypt/decrypt (the checking wrapper where
// the profile has one, else the impl method) with chaining register iv.
func (e *Env) CBC(decrypt bool, k []uint32, iv []byte, in []byte, inOfs, n int, out []byte, outOfs int) (int, error) {
	key := "CipherBlockChaining.encrypt"
	if decrypt {
		key = "CipherBlockChaining.decrypt"
	}
	if _, err := e.Table.Lookup(key); err != nil {
		key = "CipherBlockChaining.implEncrypt"
		if decrypt {
			key = "CipherBlockChaining.implDecrypt"
		}
	}
	r := append([]byte(nil), iv...)
	ret, err := e.Call(key, bytecode.IntsArg(k), bytecode.BytesArg(r), bytecode.BytesArg(in), bytecode.IntArg(inOfs), bytecode.IntArg(n), bytecode.BytesArg(out), bytecode.IntArg(outOfs))
	return int(ret), err
}

// ECB runs ElectronicCodeBook.encrypt/decrypt (wrapper or impl).
func (e *Env) ECB(decrypt bool, k []uint32, in []byte, inOfs, n int, out []byte, outOfs int) (int, error) {
	key := "ElectronicCodeBook.encrypt"
	if decrypt {
		key = "ElectronicCodeBook.decrypt"
	}
	if _, err := e.Table.Lookup(key); err != nil {
		key = "ElectronicCodeBook.implECBEncrypt"
		if decrypt {
			key = "ElectronicCodeBook.implECBDecrypt"
		}
	}
	ret, err := e.Call(key, bytecode.IntsArg(k), bytecode.BytesArg(in), bytecode.IntArg(inOfs), bytecode.IntArg(n), bytecode.BytesArg(out), bytecode.IntArg(outOfs))
	return int(ret), err
}

// CTR runs CounterMode.crypt (JDK 9+; JDK 8: the body itself, keyed
// CounterMode.implCrypt) from a fresh CounterMode (used = 16).
func (e *Env) CTR(k []uint32, iv []byte, in []byte, inOfs, n int, out []byte, outOfs int) (int, error) {
	counter := append([]byte(nil), iv...)
	ectr := make([]byte, 16)
	used := []uint32{16}
	key := "CounterMode.crypt"
	if _, err := e.Table.Lookup(key); err != nil {
		key = "CounterMode.implCrypt"
	}
	ret, err := e.Call(key, bytecode.IntsArg(k), bytecode.BytesArg(counter), bytecode.BytesArg(ectr), bytecode.IntsArg(used),
		bytecode.BytesArg(in), bytecode.IntArg(inOfs), bytecode.IntArg(n), bytecode.BytesArg(out), bytecode.IntArg(outOfs))
	return int(ret), err
}

// GCM runs a whole AES-GCM encryption or decryption the way the JDK's
// GaloisCounterMode engine does for one doFinal on arrays: H = E(0), J0
// (SP 800-38D §7.1 step 2), GHASH of the AAD, GCMEngine.doLastBlock over
// the data, the length block, and the tag E(J0) xor S. It returns the tag.
func (e *Env) GCM(decrypt bool, ke []uint32, iv, aad, in []byte, inOfs, n int, out []byte, outOfs int) ([]byte, error) {
	h := make([]byte, 16)
	if err := e.Block(false, ke, h, 0, h, 0); err != nil {
		return nil, err
	}
	subH := []uint64{binary.BigEndian.Uint64(h), binary.BigEndian.Uint64(h[8:])}
	var j0 []byte
	if len(iv) == 12 {
		j0 = append(append([]byte(nil), iv...), 0, 0, 0, 1)
	} else {
		st := make([]uint64, 2)
		if err := e.ghashFinal(st, subH, iv); err != nil {
			return nil, err
		}
		lb := make([]byte, 16)
		binary.BigEndian.PutUint64(lb[8:], uint64(len(iv))*8)
		if _, err := e.Call("GHASH.update", bytecode.LongsArg(st), bytecode.LongsArg(subH), bytecode.BytesArg(lb), bytecode.IntArg(0), bytecode.IntArg(16)); err != nil {
			return nil, err
		}
		j0 = make([]byte, 16)
		binary.BigEndian.PutUint64(j0, st[0])
		binary.BigEndian.PutUint64(j0[8:], st[1])
	}
	st := make([]uint64, 2)
	if err := e.ghashFinal(st, subH, aad); err != nil {
		return nil, err
	}
	counter := append([]byte(nil), j0...)
	inc32(counter)
	ectr := make([]byte, 16)
	used := []uint32{16}
	if _, err := e.Call("GaloisCounterMode.GCMEngine.doLastBlock", bytecode.BoolArg(!decrypt),
		bytecode.BytesArg(in), bytecode.IntArg(inOfs), bytecode.IntArg(n), bytecode.BytesArg(out), bytecode.IntArg(outOfs),
		bytecode.IntsArg(ke), bytecode.BytesArg(counter), bytecode.BytesArg(ectr), bytecode.IntsArg(used), bytecode.LongsArg(st), bytecode.LongsArg(subH)); err != nil {
		return nil, err
	}
	lb := make([]byte, 16)
	binary.BigEndian.PutUint64(lb, uint64(len(aad))*8)
	binary.BigEndian.PutUint64(lb[8:], uint64(n)*8)
	if _, err := e.Call("GHASH.update", bytecode.LongsArg(st), bytecode.LongsArg(subH), bytecode.BytesArg(lb), bytecode.IntArg(0), bytecode.IntArg(16)); err != nil {
		return nil, err
	}
	tag := make([]byte, 16)
	if err := e.Block(false, ke, j0, 0, tag, 0); err != nil {
		return nil, err
	}
	for i := range 8 {
		tag[i] ^= byte(st[0] >> (56 - 8*i))
		tag[8+i] ^= byte(st[1] >> (56 - 8*i))
	}
	return tag, nil
}

func (e *Env) ghashFinal(st, subH []uint64, data []byte) error {
	_, err := e.Call("GHASH.doFinal", bytecode.LongsArg(st), bytecode.LongsArg(subH), bytecode.BytesArg(data), bytecode.IntArg(0), bytecode.IntArg(len(data)))
	return err
}

// inc32 is GaloisCounterMode.increment32 (SP 800-38D §6.2).
func inc32(b []byte) {
	for i := 15; i >= 12; i-- {
		b[i]++
		if b[i] != 0 {
			return
		}
	}
}
