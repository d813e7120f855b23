// Cost measures steady-state per-byte costs of the JDK's AES modes, of GHASH
// (the JDK's own GHASH.update, and GMAC: GCM with AAD only), the JDK's own combined GCM
// routine (GaloisCounterMode.implGCMCrypt0, JDK 21+) and the cost of a non-inlined static call,
// for jitsim's model-clock profiles, and the composite operations jitsim's
// model is validated against (GCM and CBC encrypt/decrypt, CTR). Run it under
// different -XX flags; it prints one "row" line per measurement: the median
// of five rounds, with the fastest and slowest round as its spread.
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

public class Cost {
    static final int SIZE = Integer.getInteger("size", 16384);
    static final long WARM_NS = Long.getLong("warmMs", 3000) * 1_000_000L;
    static final long MEASURE_NS = Long.getLong("measureMs", 1500) * 1_000_000L;
    static volatile int sink;

    interface Op { void run() throws Exception; }

    static final java.lang.management.ThreadMXBean MX = java.lang.management.ManagementFactory.getThreadMXBean();

    // cpu is this thread's CPU time: the machine is shared, so wall time
    // would count the time other processes hold the CPU.
    static long cpu() { return MX.getCurrentThreadCpuTime(); }

    static long ops; // operations run so far, for the warm-up's count
    static int batch = 1; // operations between two reads of the clock

    // BATCH_NS is the least CPU time between two reads of the clock: reading the thread CPU
    // clock costs about 1.5 µs on a virtual machine (a system call), which a read per
    // operation would add to every operation's time.
    static final long BATCH_NS = 200_000L;

    // round runs op for about budget ns of thread CPU time, in batches that read the clock
    // once; returns CPU ns per op. A batch shorter than BATCH_NS doubles the next.
    static double round(Op op, long budget) throws Exception {
        long n = 0, t0 = cpu(), t = t0;
        do {
            long b0 = t;
            for (int i = 0; i < batch; i++) op.run();
            n += batch;
            t = cpu();
            if (t - b0 < BATCH_NS && batch < (1 << 24)) batch *= 2;
        } while (t - t0 < budget);
        ops += n;
        return (double) (t - t0) / n;
    }

    // The machine sentinel. On a shared virtual machine the same compiled code runs up to 1.6
    // times slower for seconds to minutes at a time, and a loop of table reads slows down with
    // it while a chain of multiplies hardly moves. sentinelPs times eight streams of reads from
    // a 16 KiB table (of zeros), with an add and a mask each, for SENTINEL_NS of thread CPU
    // time, and returns ps per read. nsPerOp takes a reading before its timed rounds and after
    // each, and a row prints their median as "sentinel=": read in the same thread right beside
    // the row, it sees the stretch the row ran in. Readings compare only with readings of the
    // same row under the same options: the loop runs at whatever level those options compile
    // it.
    static final long SENTINEL_NS = Long.getLong("sentinelMs", 2) * 1_000_000L;
    static final int[] TABLE = new int[4096];
    static double sentinel; // the last row's median reading

    static int tableReads(int n, int seed) {
        int a = seed, b = seed + 1, c = seed + 2, d = seed + 3, e = seed + 4, f = seed + 5, g = seed + 6, h = seed + 7;
        for (int i = 0; i < n; i++) {
            a += TABLE[(a ^ h) & 4095]; b += TABLE[(b ^ a) & 4095]; c += TABLE[(c ^ b) & 4095]; d += TABLE[(d ^ c) & 4095];
            e += TABLE[(e + 1) & 4095]; f += TABLE[(f + 3) & 4095]; g += TABLE[(g + 5) & 4095]; h += TABLE[(h + 7) & 4095];
        }
        return a + b + c + d + e + f + g + h;
    }

    static int sentinelBatch = 1024; // loop iterations between two reads of the clock (BATCH_NS)

    static double sentinelPs() {
        long reads = 0, t0 = cpu(), t = t0;
        do {
            long b0 = t;
            sink += tableReads(sentinelBatch, sink);
            reads += 8L * sentinelBatch;
            t = cpu();
            if (t - b0 < BATCH_NS && sentinelBatch < (1 << 24)) sentinelBatch *= 2;
        } while (t - t0 < SENTINEL_NS);
        return (t - t0) * 1000.0 / reads;
    }

    // printRow prints one per-byte row: median, fastest and slowest round, and the sentinel.
    static void printRow(String name, int size, double[] ns) {
        System.out.printf("row %s size=%d cpu-ns/op=%.1f cpu-ns/byte=%.4f cpu-MB/s=%.1f min=%.1f max=%.1f sentinel=%.1f%n",
                name, size, ns[0], ns[0] / size, size * 1e3 / ns[0], ns[1], ns[2], sentinel);
    }

    static final long STEP_NS = Long.getLong("stepMs", 250) * 1_000_000L;
    static final long WARM_OPS = Long.getLong("warmOps", 0);

    // nsPerOp warms up for at least WARM_NS of CPU time and WARM_OPS operations,
    // and until two successive rounds of STEP_NS agree within 3% (C2 may compile
    // late on a loaded machine; at most 40 rounds beyond the operation count and
    // 60 s), then times 5 rounds and returns {median, fastest, slowest} CPU ns per op.
    static double[] nsPerOp(Op op) throws Exception {
        long t0 = cpu();
        ops = 0;
        batch = 1;
        double prev = round(op, STEP_NS);
        for (int i = 0; i < 40 && cpu() - t0 < 60_000_000_000L; ) {
            double cur = round(op, STEP_NS);
            boolean stable = Math.abs(cur - prev) < 0.03 * prev;
            prev = cur;
            if (ops < WARM_OPS) continue;
            i++;
            if (stable && cpu() - t0 > WARM_NS) break;
        }
        double[] r = new double[5], s = new double[r.length + 1];
        s[0] = sentinelPs();
        for (int k = 0; k < r.length; k++) {
            r[k] = round(op, MEASURE_NS / r.length);
            s[k + 1] = sentinelPs();
        }
        java.util.Arrays.sort(s);
        sentinel = (s[(s.length - 1) / 2] + s[s.length / 2]) / 2;
        java.util.Arrays.sort(r);
        return new double[] {r[r.length / 2], r[0], r[r.length - 1]};
    }

    static int leaf(int x) { return x * 31 + 7; }

    // Our own bit-serial GHASH (SP 800-38D, Algorithm 1) in the two shapes the JDK's Java
    // GHASH has had: the block's halves read through a big-endian long view (JDK 9+) or
    // assembled byte by byte (JDK 8, which has no VarHandle). Rows "ghash-view" and
    // "ghash-bytes" time both over the same data: the cost of the older shape.
    static final java.lang.invoke.VarHandle BE_LONG =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.BIG_ENDIAN);

    static void ghashMult(long[] st, long[] h) {
        long z0 = 0, z1 = 0, v0 = h[0], v1 = h[1];
        for (int half = 0; half < 2; half++) {
            long x = st[half];
            for (int i = 0; i < 64; i++) {
                long m = x >> 63;
                z0 ^= v0 & m;
                z1 ^= v1 & m;
                long r = (v1 << 63) >> 63;
                v1 = (v1 >>> 1) | (v0 << 63);
                v0 = (v0 >>> 1) ^ (0xe100000000000000L & r);
                x <<= 1;
            }
        }
        st[0] = z0;
        st[1] = z1;
    }

    static long bytesToLong(byte[] b, int o) {
        long v = 0;
        for (int i = o; i < o + 8; i++) v = (v << 8) + (b[i] & 0xff);
        return v;
    }

    static void ghashView(byte[] d, int ofs, int blocks, long[] st, long[] h) {
        for (; blocks > 0; blocks--, ofs += 16) {
            st[0] ^= (long) BE_LONG.get(d, ofs);
            st[1] ^= (long) BE_LONG.get(d, ofs + 8);
            ghashMult(st, h);
        }
    }

    static void ghashBytes(byte[] d, int ofs, int blocks, long[] st, long[] h) {
        for (; blocks > 0; blocks--, ofs += 16) {
            st[0] ^= bytesToLong(d, ofs);
            st[1] ^= bytesToLong(d, ofs + 8);
            ghashMult(st, h);
        }
    }

    // Our own loops around the JDK's single-block AES method (AESCrypt.encryptBlock, reached
    // through a constant method handle, which C2 inlines, so its intrinsic applies), per
    // 16-byte block: "blocks-chain" each block the previous block's output (the latency-bound
    // call), "blocks-ecb" independent blocks whose output the loop never reads, "blocks-gctr8u"
    // JDK 8u's GCTR.update loop shape (encrypt the counter into a buffer, XOR 16 bytes from it
    // in a nested loop, increment the counter's last 32 bits byte by byte), and
    // "blocks-gctr8u-glue" that loop without the block call. Only when asked for by name; they
    // need the same --add-opens as ghash-jdk.
    static final class Blocks {
        static final java.lang.invoke.MethodHandle ENC;
        static final Object AES;
        static {
            try {
                Class<?> c = Class.forName("com.sun.crypto.provider.AESCrypt");
                java.lang.reflect.Constructor<?> mk = c.getDeclaredConstructor();
                mk.setAccessible(true);
                AES = mk.newInstance();
                java.lang.reflect.Method init = c.getDeclaredMethod("init", boolean.class, String.class, byte[].class);
                init.setAccessible(true);
                init.invoke(AES, false, "AES", new byte[16]);
                java.lang.reflect.Method m = c.getDeclaredMethod("encryptBlock", byte[].class, int.class, byte[].class, int.class);
                m.setAccessible(true);
                ENC = java.lang.invoke.MethodHandles.lookup().unreflect(m).asType(java.lang.invoke.MethodType.methodType(
                        void.class, Object.class, byte[].class, int.class, byte[].class, int.class));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        static final byte[] CTR = new byte[16], ECTR = new byte[16];

        static void chain(byte[] buf, int blocks) throws Throwable {
            for (int i = 0; i < blocks; i++) ENC.invokeExact(AES, buf, 0, buf, 0);
        }

        static void ecb(byte[] in, byte[] out, int blocks) throws Throwable {
            for (int i = 0; i < blocks; i++) ENC.invokeExact(AES, in, 16 * i, out, 16 * i);
        }

        static void increment32(byte[] ctr) {
            for (int n = 15; n >= 12 && ++ctr[n] == 0; n--) { }
        }

        static void gctr8u(byte[] in, byte[] out, int blocks) throws Throwable {
            for (int i = 0; i < blocks; i++) {
                ENC.invokeExact(AES, CTR, 0, ECTR, 0);
                for (int n = 0; n < 16; n++) out[16 * i + n] = (byte) (in[16 * i + n] ^ ECTR[n]);
                increment32(CTR);
            }
        }

        static void gctr8uGlue(byte[] in, byte[] out, int blocks) {
            for (int i = 0; i < blocks; i++) {
                for (int n = 0; n < 16; n++) out[16 * i + n] = (byte) (in[16 * i + n] ^ ECTR[n]);
                increment32(CTR);
            }
        }

        static void run(String shape, byte[] in, byte[] out, int blocks) throws Exception {
            try {
                if (shape.equals("blocks-chain")) chain(out, blocks);
                else if (shape.equals("blocks-ecb")) ecb(in, out, blocks);
                else if (shape.equals("blocks-gctr8u")) gctr8u(in, out, blocks);
                else gctr8uGlue(in, out, blocks);
            } catch (Exception | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new Exception(t);
            }
        }
    }

    public static void main(String[] a) throws Exception {
        String only = System.getProperty("only", "");
        // A mode's first use in a fresh JVM, before anything else here touches the JCE, in two
        // rows: "first-MODE-instance", the first Cipher.getInstance less the second (loading
        // the JCE and its provider), and "first-MODE-op", the first instance's init and
        // 16-byte encryption less the second instance's (loading, linking and initialising the
        // mode's classes). Both run interpreted (the JIT has not compiled their methods yet).
        // One mode per JVM: a second mode's first use would find the shared classes loaded.
        // Only when asked for by name.
        for (String m : only.split(",")) {
            if (!m.startsWith("first-")) continue;
            String name = m.split("-")[1], tr = "AES/" + name.toUpperCase() + "/NoPadding";
            byte[] key16 = new byte[16], in16 = new byte[16], out16 = new byte[32];
            long t0 = cpu();
            Cipher c1 = Cipher.getInstance(tr);
            long t1 = cpu();
            Cipher c2 = Cipher.getInstance(tr);
            long t2 = cpu();
            Cipher[] cs = {c1, c2};
            long[] t = new long[3];
            t[0] = t2;
            for (int i = 0; i < 2; i++) {
                SecretKeySpec sk = new SecretKeySpec(key16, "AES");
                if (tr.contains("GCM")) cs[i].init(Cipher.ENCRYPT_MODE, sk, new GCMParameterSpec(128, new byte[12]));
                else cs[i].init(Cipher.ENCRYPT_MODE, sk, new IvParameterSpec(new byte[16]));
                sink += cs[i].doFinal(in16, 0, 16, out16, 0);
                t[i + 1] = cpu();
            }
            double[] ns = {Math.max((t1 - t0) - (t2 - t1), 1), Math.max((t[1] - t[0]) - (t[2] - t[1]), 1)};
            String[] rows = {"first-" + name + "-instance", "first-" + name + "-op"};
            for (int i = 0; i < 2; i++) {
                System.out.printf("row %s size=16 cpu-ns/op=%.1f cpu-ns/byte=%.4f cpu-MB/s=%.1f min=%.1f max=%.1f%n",
                        rows[i], ns[i], ns[i] / 16, ns[i] > 0 ? 16 * 1e3 / ns[i] : 0, ns[i], ns[i]);
            }
            return;
        }
        // The sentinel's loop is compiled before its first reading counts (where the options
        // let it be compiled at all).
        for (long t0 = cpu(); cpu() - t0 < 30 * SENTINEL_NS; ) sentinelPs();
        byte[] key = new byte[16], iv = new byte[16], in = new byte[SIZE], out = new byte[SIZE + 16];
        for (int i = 0; i < SIZE; i++) in[i] = (byte) i;
        SecretKeySpec k = new SecretKeySpec(key, "AES");
        String[][] modes = {
            {"ecb-enc", "AES/ECB/NoPadding", "E"}, {"ecb-dec", "AES/ECB/NoPadding", "D"},
            {"cbc-enc", "AES/CBC/NoPadding", "E"}, {"cbc-dec", "AES/CBC/NoPadding", "D"},
            {"ctr", "AES/CTR/NoPadding", "E"}, {"gcm-enc", "AES/GCM/NoPadding", "E"},
            {"gmac", "AES/GCM/NoPadding", "A"}, {"gcm-dec", "AES/GCM/NoPadding", "D"},
        };
        java.util.List<String> want = java.util.Arrays.asList(only.split(","));
        for (String[] m : modes) {
            if (!only.isEmpty() && !want.contains(m[0])) continue;
            Cipher c = Cipher.getInstance(m[1]);
            Op op;
            if (m[2].equals("D") && m[1].contains("GCM")) {
                // decryption may reuse its IV: one ciphertext, decrypted over and over
                final byte[] n = new byte[12];
                c.init(Cipher.ENCRYPT_MODE, k, new GCMParameterSpec(128, n));
                final byte[] ct = c.doFinal(in);
                op = () -> {
                    c.init(Cipher.DECRYPT_MODE, k, new GCMParameterSpec(128, n));
                    sink += c.doFinal(ct, 0, ct.length, out, 0);
                };
            } else if (m[1].contains("GCM")) {
                final boolean aad = m[2].equals("A");
                final long[] ctr = {0};
                op = () -> {
                    byte[] n = new byte[12];
                    long v = ++ctr[0];
                    for (int i = 0; i < 8; i++) n[i] = (byte) (v >>> (8 * i));
                    c.init(Cipher.ENCRYPT_MODE, k, new GCMParameterSpec(128, n));
                    if (aad) { c.updateAAD(in); sink += c.doFinal(out, 0); }
                    else sink += c.doFinal(in, 0, SIZE, out, 0);
                };
            } else {
                int mode = m[2].equals("E") ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE;
                if (m[1].contains("ECB")) c.init(mode, k); else c.init(mode, k, new IvParameterSpec(iv));
                op = () -> sink += c.doFinal(in, 0, SIZE, out, 0);
            }
            double[] ns = nsPerOp(op);
            printRow(m[0], SIZE, ns);
        }
        // "ghash-jdk": the JDK's own GHASH.update over SIZE bytes, called directly, so that
        // GHASH is timed without the GCM engine around it (GMAC's AAD path costs more than GCM's
        // GHASH at C1, measured on JDK 17 at levels 1 and 3); it needs
        // --add-opens java.base/com.sun.crypto.provider=ALL-UNNAMED. It runs before the glue
        // rows: run after them, GHASH at C1 drew a speed about 1.45x slower for the JVM's whole
        // life in half of the JVMs (level 1, JDK 17); run before them, in none of eight.
        ghashJdk:
        if (only.isEmpty() || want.contains("ghash-jdk")) {
            final java.lang.reflect.Method up;
            final Object gh;
            try {
                Class<?> c = Class.forName("com.sun.crypto.provider.GHASH");
                java.lang.reflect.Constructor<?> mk = c.getDeclaredConstructor(byte[].class);
                mk.setAccessible(true);
                byte[] h = new byte[16];
                for (int i = 0; i < 16; i++) h[i] = (byte) (i * 37 + 1);
                gh = mk.newInstance((Object) h);
                up = c.getDeclaredMethod("update", byte[].class, int.class, int.class);
                up.setAccessible(true);
            } catch (ReflectiveOperationException | RuntimeException e) {
                System.err.println("ghash-jdk: the JDK's GHASH is not reachable (" + e
                        + "); run with --add-opens java.base/com.sun.crypto.provider=ALL-UNNAMED");
                if (!only.isEmpty()) System.exit(2); // asked for by name: a run without it is no measurement
                break ghashJdk; // the other rows still run
            }
            double[] ns = nsPerOp(() -> sink += (int) up.invoke(gh, in, 0, SIZE));
            printRow("ghash-jdk", SIZE, ns);
        }
        // The provider glue around the modelled methods, on 16-byte messages: "final" a
        // doFinal of an initialised cipher (GCM: a decryption, which may repeat), "init" an
        // init alone, in the direction of the "final" rows (GCM: under a fresh IV each time).
        String[][] glue = {
            {"ecb", "AES/ECB/NoPadding"}, {"cbc", "AES/CBC/NoPadding"}, {"ctr", "AES/CTR/NoPadding"}, {"gcm", "AES/GCM/NoPadding"},
        };
        for (String[] g : glue) {
            for (String phase : new String[] {"final", "init"}) {
                String name = "glue-" + g[0] + "-" + phase;
                if (!want.contains(name)) continue; // only when asked for by name
                Cipher c = Cipher.getInstance(g[1]);
                final byte[] small = new byte[16], smallOut = new byte[32];
                final boolean gcm = g[0].equals("gcm"), ecb = g[0].equals("ecb");
                final long[] ctr = {0};
                final java.util.function.Supplier<java.security.spec.AlgorithmParameterSpec> spec = () -> {
                    if (!gcm) return new IvParameterSpec(iv);
                    byte[] n = new byte[12];
                    long v = ++ctr[0];
                    for (int i = 0; i < 8; i++) n[i] = (byte) (v >>> (8 * i));
                    return new GCMParameterSpec(128, n);
                };
                Op op;
                if (phase.equals("final")) {
                    final byte[] ct;
                    if (gcm) {
                        java.security.spec.AlgorithmParameterSpec p = spec.get();
                        c.init(Cipher.ENCRYPT_MODE, k, p);
                        ct = c.doFinal(small);
                        c.init(Cipher.DECRYPT_MODE, k, p);
                    } else {
                        if (ecb) c.init(Cipher.ENCRYPT_MODE, k); else c.init(Cipher.ENCRYPT_MODE, k, spec.get());
                        ct = small;
                    }
                    op = () -> sink += c.doFinal(ct, 0, ct.length, smallOut, 0);
                } else {
                    final int dir = gcm ? Cipher.DECRYPT_MODE : Cipher.ENCRYPT_MODE;
                    op = () -> {
                        if (ecb) c.init(dir, k); else c.init(dir, k, spec.get());
                        sink += c.getOutputSize(16);
                    };
                }
                double[] ns = nsPerOp(op);
                printRow(name, 16, ns);
            }
        }
        // One whole operation per call, as jitsim's BenchmarkOperation runs it: getInstance,
        // init (GCM encryption: a fresh IV), updateAAD of 16 bytes (GCM), doFinal into a
        // preallocated buffer. Only when asked for by name ("op-gcm-enc", ...).
        final byte[] aad16 = new byte[16];
        for (int i = 0; i < 16; i++) aad16[i] = (byte) i;
        for (String[] m : modes) {
            String name = "op-" + m[0];
            if (!want.contains(name) || m[2].equals("A") || m[1].contains("ECB")) continue;
            final String tr = m[1];
            final boolean gcm = tr.contains("GCM"), dec = m[2].equals("D");
            final byte[] n12 = new byte[12];
            final byte[] src;
            if (gcm && dec) {
                Cipher e = Cipher.getInstance(tr);
                e.init(Cipher.ENCRYPT_MODE, k, new GCMParameterSpec(128, n12));
                e.updateAAD(aad16);
                src = e.doFinal(in);
            } else {
                src = in;
            }
            final long[] ctr = {0};
            Op op = () -> {
                Cipher c = Cipher.getInstance(tr);
                if (gcm) {
                    byte[] n = n12;
                    if (!dec) {
                        n = new byte[12];
                        long v = ++ctr[0];
                        for (int i = 0; i < 8; i++) n[i] = (byte) (v >>> (8 * i));
                    }
                    c.init(dec ? Cipher.DECRYPT_MODE : Cipher.ENCRYPT_MODE, k, new GCMParameterSpec(128, n));
                    c.updateAAD(aad16);
                } else {
                    c.init(dec ? Cipher.DECRYPT_MODE : Cipher.ENCRYPT_MODE, k, new IvParameterSpec(iv));
                }
                sink += c.doFinal(src, 0, src.length, out, 0);
            };
            double[] ns = nsPerOp(op);
            printRow(name, SIZE, ns);
        }
        // "gcm-crypt0": the JDK's own GaloisCounterMode.implGCMCrypt0 (JDK 21+) over SIZE bytes,
        // called directly with a GCTR and a GHASH of its own: at C2 the combined AES-GCM stub
        // that serves it, timed without the Cipher around it (no tag, no provider glue). A JDK
        // without the method prints no row; it needs the same --add-opens as ghash-jdk.
        gcmCrypt0:
        if (only.isEmpty() || want.contains("gcm-crypt0")) {
            final java.lang.reflect.Method crypt0;
            final Object gctr, gh;
            try {
                Class<?> gcm = Class.forName("com.sun.crypto.provider.GaloisCounterMode");
                Class<?> gctrC = Class.forName("com.sun.crypto.provider.GCTR");
                Class<?> ghC = Class.forName("com.sun.crypto.provider.GHASH");
                try {
                    crypt0 = gcm.getDeclaredMethod("implGCMCrypt0", byte[].class, int.class, int.class,
                            byte[].class, int.class, byte[].class, int.class, gctrC, ghC);
                } catch (NoSuchMethodException e) {
                    if (!only.isEmpty()) {
                        System.err.println("gcm-crypt0: this JDK has no GaloisCounterMode.implGCMCrypt0 (JDK 21 and later have it)");
                        System.exit(2);
                    }
                    break gcmCrypt0;
                }
                crypt0.setAccessible(true);
                Class<?> aesC = Class.forName("com.sun.crypto.provider.AESCrypt");
                java.lang.reflect.Constructor<?> mkAES = aesC.getDeclaredConstructor();
                mkAES.setAccessible(true);
                Object aes = mkAES.newInstance();
                java.lang.reflect.Method init = aesC.getDeclaredMethod("init", boolean.class, String.class, byte[].class);
                init.setAccessible(true);
                init.invoke(aes, false, "AES", key);
                java.lang.reflect.Constructor<?> mkGCTR = gctrC.getDeclaredConstructor(
                        Class.forName("com.sun.crypto.provider.SymmetricCipher"), byte[].class);
                mkGCTR.setAccessible(true);
                gctr = mkGCTR.newInstance(aes, new byte[16]);
                java.lang.reflect.Constructor<?> mkGHASH = ghC.getDeclaredConstructor(byte[].class);
                mkGHASH.setAccessible(true);
                byte[] h = new byte[16];
                for (int i = 0; i < 16; i++) h[i] = (byte) (i * 37 + 1);
                gh = mkGHASH.newInstance((Object) h);
            } catch (ReflectiveOperationException | RuntimeException e) {
                System.err.println("gcm-crypt0: the JDK's GaloisCounterMode is not reachable (" + e
                        + "); run with --add-opens java.base/com.sun.crypto.provider=ALL-UNNAMED");
                if (!only.isEmpty()) System.exit(2);
                break gcmCrypt0;
            }
            double[] ns = nsPerOp(() -> sink += (int) crypt0.invoke(null, in, 0, SIZE, out, 0, out, 0, gctr, gh));
            printRow("gcm-crypt0", SIZE, ns);
        }
        for (String shape : new String[] {"ghash-view", "ghash-bytes"}) {
            if (!want.contains(shape)) continue; // only when asked for by name
            final long[] st = new long[2], h = {0x66e94bd4ef8a2c3bL, 0x884cfa59ca342b2eL};
            final boolean view = shape.equals("ghash-view");
            double[] ns = nsPerOp(() -> {
                if (view) ghashView(in, 0, SIZE / 16, st, h); else ghashBytes(in, 0, SIZE / 16, st, h);
                sink += (int) st[0];
            });
            printRow(shape, SIZE, ns);
        }
        for (String shape : new String[] {"blocks-chain", "blocks-ecb", "blocks-gctr8u", "blocks-gctr8u-glue"}) {
            if (!want.contains(shape)) continue; // only when asked for by name
            try {
                Blocks.run(shape, in, out, 1);
            } catch (IllegalStateException | ExceptionInInitializerError e) {
                System.err.println(shape + ": the JDK's AESCrypt is not reachable (" + e
                        + "); run with --add-opens java.base/com.sun.crypto.provider=ALL-UNNAMED");
                System.exit(2);
            }
            final int n = SIZE / 16;
            double[] ns = nsPerOp(() -> { Blocks.run(shape, in, out, n); sink += out[0]; });
            printRow(shape, SIZE, ns);
        }
        if (only.isEmpty() || want.contains("call")) {
            final int N = 1000;
            double[] ns = nsPerOp(() -> { int x = 0; for (int i = 0; i < N; i++) x = leaf(x); sink += x; });
            System.out.printf("row call cpu-ns/call=%.3f min=%.3f max=%.3f sentinel=%.1f%n", ns[0] / N, ns[1] / N, ns[2] / N, sentinel);
        }
    }
}
