package jce_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
)

// TestProviderErrors replays testdata/provider/Errors.java's cases and
// compares exception class and message (or the result) line by line with
// what the real JDK 17 and JDK 25 printed (jdk17.txt, jdk25.txt, recorded
// with `java Errors` on those JVMs).
func TestProviderErrors(t *testing.T) {
	// Cases the provider does not reproduce, with the reason.
	skip := map[string]string{
		"getInstance DES/CBC/NoPadding":       "jitsim's provider serves AES only",
		"getInstance AES/CBC/ISO10126Padding": "jitsim's provider has no ISO10126Padding",
		"getInstance AES/CFB/NoPadding":       "jitsim's provider has no CFB",
	}
	for _, rel := range []jdk.Release{jdk.R17, jdk.R25} {
		want := readTranscript(t, "jdk"+rel.String()+".txt")
		cases := errorCases(vmFor(t, rel), rel)
		for _, name := range want.order {
			t.Run(fmt.Sprintf("jdk=%s/%s", rel, name), func(t *testing.T) {
				if why, ok := skip[name]; ok {
					t.Skip(why)
				}
				f, ok := cases[name]
				if !ok {
					t.Fatalf("no Go case for %q", name)
				}
				if got := outcome(f()); got != want.lines[name] {
					t.Fatalf("\n got %s\nwant %s", got, want.lines[name])
				}
			})
		}
	}
}

type transcript struct {
	order []string
	lines map[string]string // name -> "class\tmessage" or "OK\tvalue"
}

func readTranscript(t *testing.T, file string) transcript {
	f, err := os.Open(filepath.Join("testdata", "provider", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := transcript{lines: map[string]string{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("%s: bad line %q", file, sc.Text())
		}
		tr.order = append(tr.order, name)
		tr.lines[name] = rest
	}
	return tr
}

// outcome formats a result as Errors.java prints it.
func outcome(v any, err error) string {
	var je *jce.JavaException
	switch {
	case errors.As(err, &je):
		return je.Class + "\t" + je.Message
	case err != nil:
		return "Go error\t" + err.Error()
	}
	if b, ok := v.([]byte); ok {
		return fmt.Sprintf("OK\t%d", len(b))
	}
	return fmt.Sprintf("OK\t%v", v)
}

// errorCases mirrors Errors.java: each case as the Go API spells it.
func errorCases(v *testVM, rel jdk.Release) map[string]func() (any, error) {
	k16 := make([]byte, 16)
	iv16, iv12 := make([]byte, 16), make([]byte, 12)
	nc := func(tr string, mode int, key []byte, spec jce.ParamSpec) (*jce.Cipher, error) {
		return jce.NewCipher(ctx, v, rel, tr, mode, key, spec)
	}
	gcm := func(mode, tlen int) (*jce.Cipher, error) {
		return nc("AES/GCM/NoPadding", mode, k16, jce.GCMParameterSpec{TLen: tlen, IV: iv12})
	}
	// then chains steps on a cipher, stopping at the first error.
	then := func(c *jce.Cipher, err error) func(f func(c *jce.Cipher) (any, error)) (any, error) {
		return func(f func(c *jce.Cipher) (any, error)) (any, error) {
			if err != nil {
				return nil, err
			}
			return f(c)
		}
	}
	doFinal := func(n int) func(c *jce.Cipher) (any, error) {
		return func(c *jce.Cipher) (any, error) { return c.DoFinal(ctx, make([]byte, n)) }
	}
	update := func(n int) func(c *jce.Cipher) (any, error) {
		return func(c *jce.Cipher) (any, error) { return c.Update(ctx, make([]byte, n)) }
	}
	doFinalTo := func(in, out int) func(c *jce.Cipher) (any, error) {
		return func(c *jce.Cipher) (any, error) {
			return c.DoFinalTo(ctx, make([]byte, in), 0, in, make([]byte, out), 0)
		}
	}
	updateTo := func(in, out int) func(c *jce.Cipher) (any, error) {
		return func(c *jce.Cipher) (any, error) {
			return c.UpdateTo(ctx, make([]byte, in), 0, in, make([]byte, out), 0)
		}
	}
	zero := func(c *jce.Cipher) (any, error) { return 0, nil }
	iv := func(c *jce.Cipher) (any, error) { return c.IV(), nil }
	cbcDecShort := func(out int) func() (any, error) {
		return func() (any, error) {
			ct, err := then(nc("AES/CBC/PKCS5Padding", jce.EncryptMode, k16, jce.IvParameterSpec{IV: iv16}))(doFinal(20))
			if err != nil {
				return nil, err
			}
			c, err := nc("AES/CBC/PKCS5Padding", jce.DecryptMode, k16, jce.IvParameterSpec{IV: iv16})
			if err != nil {
				return nil, err
			}
			b := ct.([]byte)
			return c.DoFinalTo(ctx, b, 0, len(b), make([]byte, out), 0)
		}
	}
	cases := map[string]func() (any, error){
		"key15": func() (any, error) {
			return then(nc("AES/ECB/NoPadding", jce.EncryptMode, make([]byte, 15), nil))(zero)
		},
		"key0gcm": func() (any, error) {
			return then(nc("AES/GCM/NoPadding", jce.EncryptMode, make([]byte, 33), jce.GCMParameterSpec{TLen: 128, IV: iv12}))(zero)
		},
		"ecb nopad 17": func() (any, error) {
			return then(nc("AES/ECB/NoPadding", jce.EncryptMode, k16, nil))(doFinal(17))
		},
		"cbc nopad 17": func() (any, error) {
			return then(nc("AES/CBC/NoPadding", jce.EncryptMode, k16, jce.IvParameterSpec{IV: iv16}))(doFinal(17))
		},
		"cbc pkcs5 dec 17": func() (any, error) {
			return then(nc("AES/CBC/PKCS5Padding", jce.DecryptMode, k16, jce.IvParameterSpec{IV: iv16}))(doFinal(17))
		},
		"cbc pkcs5 dec 0": func() (any, error) {
			return then(nc("AES/CBC/PKCS5Padding", jce.DecryptMode, k16, jce.IvParameterSpec{IV: iv16}))(doFinal(0))
		},
		"cbc pkcs5 badpad": func() (any, error) {
			return then(nc("AES/CBC/PKCS5Padding", jce.DecryptMode, k16, jce.IvParameterSpec{IV: iv16}))(doFinal(32))
		},
		"ecb pkcs5 badpad": func() (any, error) {
			return then(nc("AES/ECB/PKCS5Padding", jce.DecryptMode, k16, nil))(doFinal(16))
		},
		"cbc dec noiv": func() (any, error) { return then(nc("AES/CBC/PKCS5Padding", jce.DecryptMode, k16, nil))(zero) },
		"cbc enc noiv": func() (any, error) { return then(nc("AES/CBC/PKCS5Padding", jce.EncryptMode, k16, nil))(iv) },
		"cbc iv8": func() (any, error) {
			return then(nc("AES/CBC/PKCS5Padding", jce.EncryptMode, k16, jce.IvParameterSpec{IV: make([]byte, 8)}))(zero)
		},
		"ctr iv8": func() (any, error) {
			return then(nc("AES/CTR/NoPadding", jce.EncryptMode, k16, jce.IvParameterSpec{IV: make([]byte, 8)}))(zero)
		},
		"ecb iv": func() (any, error) {
			return then(nc("AES/ECB/NoPadding", jce.EncryptMode, k16, jce.IvParameterSpec{IV: iv16}))(zero)
		},
		"gcm ivspec": func() (any, error) {
			return then(nc("AES/GCM/NoPadding", jce.EncryptMode, k16, jce.IvParameterSpec{IV: iv12}))(zero)
		},
		"gcm tlen 64":  func() (any, error) { return then(gcm(jce.EncryptMode, 64))(zero) },
		"gcm tlen 95":  func() (any, error) { return then(gcm(jce.EncryptMode, 95))(zero) },
		"gcm tlen 136": func() (any, error) { return then(gcm(jce.EncryptMode, 136))(zero) },
		"gcm iv0": func() (any, error) {
			return then(nc("AES/GCM/NoPadding", jce.EncryptMode, k16, jce.GCMParameterSpec{TLen: 128, IV: []byte{}}))(zero)
		},
		"gcm dec noparams": func() (any, error) { return then(nc("AES/GCM/NoPadding", jce.DecryptMode, k16, nil))(zero) },
		"gcm badtag":       func() (any, error) { return then(gcm(jce.DecryptMode, 128))(doFinal(40)) },
		"gcm short":        func() (any, error) { return then(gcm(jce.DecryptMode, 128))(doFinal(15)) },
		"gcm short96":      func() (any, error) { return then(gcm(jce.DecryptMode, 96))(doFinal(11)) },
		"gcm reuse": func() (any, error) {
			return then(gcm(jce.EncryptMode, 128))(func(c *jce.Cipher) (any, error) {
				if _, err := c.DoFinal(ctx, make([]byte, 3)); err != nil {
					return nil, err
				}
				return c.DoFinal(ctx, make([]byte, 3))
			})
		},
		"gcm aad after update": func() (any, error) {
			return then(gcm(jce.EncryptMode, 128))(func(c *jce.Cipher) (any, error) {
				if _, err := c.Update(ctx, make([]byte, 20)); err != nil {
					return nil, err
				}
				return 0, c.UpdateAAD(make([]byte, 3))
			})
		},
		"ecb aad": func() (any, error) {
			return then(nc("AES/ECB/NoPadding", jce.EncryptMode, k16, nil))(func(c *jce.Cipher) (any, error) {
				return 0, c.UpdateAAD(make([]byte, 3))
			})
		},
		"ecb shortbuf": func() (any, error) {
			return then(nc("AES/ECB/PKCS5Padding", jce.EncryptMode, k16, nil))(doFinalTo(20, 20))
		},
		"cbc update shortbuf": func() (any, error) {
			return then(nc("AES/CBC/NoPadding", jce.EncryptMode, k16, jce.IvParameterSpec{IV: iv16}))(updateTo(32, 20))
		},
		"gcm enc shortbuf":        func() (any, error) { return then(gcm(jce.EncryptMode, 128))(doFinalTo(20, 30)) },
		"gcm enc update shortbuf": func() (any, error) { return then(gcm(jce.EncryptMode, 128))(updateTo(40, 20)) },
		"gcm dec shortbuf":        func() (any, error) { return then(gcm(jce.DecryptMode, 128))(doFinalTo(40, 10)) },
		"ctr shortbuf": func() (any, error) {
			return then(nc("AES/CTR/NoPadding", jce.EncryptMode, k16, jce.IvParameterSpec{IV: iv16}))(doFinalTo(20, 19))
		},
		"gcm dec update":    func() (any, error) { return then(gcm(jce.DecryptMode, 128))(update(40)) },
		"gcm enc update 40": func() (any, error) { return then(gcm(jce.EncryptMode, 128))(update(40)) },
		"ctr update 20": func() (any, error) {
			return then(nc("AES/CTR/NoPadding", jce.EncryptMode, k16, jce.IvParameterSpec{IV: iv16}))(update(20))
		},
		"cbc pkcs5 dec update 32": func() (any, error) {
			return then(nc("AES/CBC/PKCS5Padding", jce.DecryptMode, k16, jce.IvParameterSpec{IV: iv16}))(update(32))
		},
		"badmode":                  func() (any, error) { return then(nc("AES/ECB/NoPadding", 7, k16, nil))(zero) },
		"wrapmode":                 func() (any, error) { return then(nc("AES/ECB/NoPadding", jce.WrapMode, k16, nil))(doFinal(16)) },
		"cbc pkcs5 dec shortbuf":   cbcDecShort(19),
		"cbc pkcs5 dec shortbuf16": cbcDecShort(16),
		"gcm enc after final update": func() (any, error) {
			return then(gcm(jce.EncryptMode, 128))(func(c *jce.Cipher) (any, error) {
				if _, err := c.DoFinal(ctx, make([]byte, 3)); err != nil {
					return nil, err
				}
				return c.Update(ctx, make([]byte, 3))
			})
		},
		"gcm enc after final aad": func() (any, error) {
			return then(gcm(jce.EncryptMode, 128))(func(c *jce.Cipher) (any, error) {
				if _, err := c.DoFinal(ctx, make([]byte, 3)); err != nil {
					return nil, err
				}
				return 0, c.UpdateAAD(make([]byte, 3))
			})
		},
		"gcm dec twice": func() (any, error) {
			ct, err := then(gcm(jce.EncryptMode, 128))(doFinal(3))
			if err != nil {
				return nil, err
			}
			return then(gcm(jce.DecryptMode, 128))(func(c *jce.Cipher) (any, error) {
				if _, err := c.DoFinal(ctx, ct.([]byte)); err != nil {
					return nil, err
				}
				return c.DoFinal(ctx, ct.([]byte))
			})
		},
		"notinit": func() (any, error) {
			c, err := jce.GetInstance(v, rel, "AES/ECB/NoPadding")
			if err != nil {
				return nil, err
			}
			return c.DoFinal(ctx, make([]byte, 16))
		},
		"gcm reinit same iv": func() (any, error) {
			return then(gcm(jce.EncryptMode, 128))(func(c *jce.Cipher) (any, error) {
				if _, err := c.DoFinal(ctx, make([]byte, 3)); err != nil {
					return nil, err
				}
				return 0, c.Init(ctx, jce.EncryptMode, k16, jce.GCMParameterSpec{TLen: 128, IV: iv12})
			})
		},
		"ctr enc noiv":     func() (any, error) { return then(nc("AES/CTR/NoPadding", jce.EncryptMode, k16, nil))(iv) },
		"gcm enc noparams": func() (any, error) { return then(nc("AES/GCM/NoPadding", jce.EncryptMode, k16, nil))(iv) },
	}
	for _, tr := range []string{"AES_128/ECB/NoPadding", "AES_256/CBC/NoPadding", "AES_128/CBC/PKCS5Padding",
		"AES_128/CTR/NoPadding", "AES_192/GCM/NoPadding", "AES_128", "aes_128/ecb/nopadding", "AES_512/ECB/NoPadding"} {
		for _, n := range []int{16, 32} {
			cases[fmt.Sprintf("fixed %s %d", tr, n)] = func() (any, error) {
				var spec jce.ParamSpec
				switch {
				case strings.Contains(tr, "GCM"):
					spec = jce.GCMParameterSpec{TLen: 128, IV: iv12}
				case strings.Contains(tr, "CBC") || strings.Contains(tr, "CTR"):
					spec = jce.IvParameterSpec{IV: iv16}
				}
				return then(nc(tr, jce.EncryptMode, make([]byte, n), spec))(doFinal(16))
			}
		}
	}
	for _, tr := range []string{"AES/FOO/NoPadding", "AES/CBC/FOOPadding", "AES/GCM/PKCS5Padding", "AES/CTR/PKCS5Padding",
		"AES/CBC", "AES//NoPadding", "AES/ECB/NoPadding/x", "aes/cbc/pkcs5padding", "AES", "AES/GCM/NoPadding",
		"AES/CBC/NoPadding", "AES/CTR/NoPadding", "", "AES/CBC/PKCS7Padding"} {
		cases["getInstance "+tr] = func() (any, error) {
			return then(nc(tr, jce.EncryptMode, k16, nil))(func(c *jce.Cipher) (any, error) { return c.Algorithm(), nil })
		}
	}
	return cases
}

// TestProviderBadArguments checks Cipher's argument checks on every mode
// and profile: bad input ranges are IllegalArgumentException("Bad
// arguments"), an output offset past the end a ShortBufferException (as
// Java's capacity checks give), and nothing panics.
func TestProviderBadArguments(t *testing.T) {
	specs := map[string]jce.ParamSpec{
		"AES/ECB/PKCS5Padding": nil, "AES/CBC/NoPadding": jce.IvParameterSpec{IV: make([]byte, 16)},
		"AES/CTR/NoPadding": jce.IvParameterSpec{IV: make([]byte, 16)},
		"AES/GCM/NoPadding": jce.GCMParameterSpec{TLen: 128, IV: make([]byte, 12)},
	}
	in, out := make([]byte, 32), make([]byte, 64)
	for _, rel := range []jdk.Release{jdk.R8, jdk.R17, jdk.R25} {
		for tr, spec := range specs {
			for _, mode := range []int{jce.EncryptMode, jce.DecryptMode} {
				c := newCipher(t, rel, tr, mode, make([]byte, 16), spec)
				for _, tc := range []struct {
					name                 string
					inOfs, inLen, outOfs int
					class                string
				}{
					{"negative input offset", -1, 16, 0, jce.IllegalArgumentException},
					{"input past the end", 20, 16, 0, jce.IllegalArgumentException},
					{"negative length", 0, -1, 0, jce.IllegalArgumentException},
					{"negative output offset", 0, 16, -1, jce.IllegalArgumentException},
					{"output offset past the end", 0, 32, 65, jce.ShortBufferException},
				} {
					outOfs := tc.outOfs
					for _, final := range []bool{false, true} {
						var err error
						if final {
							_, err = c.DoFinalTo(ctx, in, tc.inOfs, tc.inLen, out, outOfs)
						} else {
							_, err = c.UpdateTo(ctx, in, tc.inOfs, tc.inLen, out, outOfs)
						}
						var je *jce.JavaException
						if !errors.As(err, &je) || je.Class != tc.class {
							t.Errorf("jdk %s %s mode %d %s (final %v): got %v, want %s", rel, tr, mode, tc.name, final, err, tc.class)
						}
					}
				}
			}
		}
	}
}

// TestProviderReinit checks Cipher.init on an existing cipher: the session
// key is expanded only when the key changes (AESCrypt.lastKey), and a GCM
// cipher may encrypt again under a new IV.
func TestProviderReinit(t *testing.T) {
	for _, rel := range []jdk.Release{jdk.R8, jdk.R25} {
		v := vmFor(t, rel)
		k1, k2 := make([]byte, 16), make([]byte, 32)
		k2[0] = 1
		c := newCipher(t, rel, "AES/GCM/NoPadding", jce.EncryptMode, k1, jce.GCMParameterSpec{TLen: 128, IV: []byte("first nonce.")})
		if _, err := c.DoFinal(ctx, []byte("x")); err != nil {
			t.Fatal(err)
		}
		for _, step := range []struct {
			key, iv []byte
			expands bool
		}{{k1, []byte("second nonce"), false}, {k2, []byte("third nonce."), true}, {k2, []byte("fourth nonce"), false}} {
			var err error
			var got []byte
			tr := v.traced(func() {
				if err = c.Init(ctx, jce.EncryptMode, step.key, jce.GCMParameterSpec{TLen: 128, IV: step.iv}); err == nil {
					got, err = c.DoFinal(ctx, []byte("message"))
				}
			})
			if err != nil || !bytes.Equal(got, goGCM(t, step.key, step.iv, 16).Seal(nil, step.iv, []byte("message"), nil)) {
				t.Fatalf("jdk %s: re-init %x: %v", rel, step.iv, err)
			}
			if n := strings.Count(strings.Join(tr, " "), "AESCrypt.makeSessionKey"); (n == 1) != step.expands || n > 1 {
				t.Fatalf("jdk %s: %d makeSessionKey calls on re-init (key changed: %v)", rel, n, step.expands)
			}
		}
	}
}
