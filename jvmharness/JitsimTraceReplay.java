import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.FileReader;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

// Replays a jitsim trace (thread,at_us,op,transformation,key_size,size,aad_size) on this JVM
// through javax.crypto, per thread in order: the real-JVM side of `jitsim warmup --jvm` for a
// workload file, which jitsim resolves into such a trace (scenario/resolve.go says how). A
// "# jitsim-phase k=v … name=NAME" line starts a phase: its threads start together, and all end
// before the next phase; "# jitsim-corrupt" marks the next line's decryption as carrying a
// corrupted tag. Lines before any phase line form one phase "replay" (a recorded trace: a
// Cipher per transformation and key size, re-initialised per operation, with a counter IV).
// Decryptions read the messages in MESSAGES (written by jitsim, so that preparing them does not
// warm this JVM). Keys, data and IVs follow jitsim's fill pattern, so that jitsim knows every
// output: the replayer prints, on stderr (stdout is -XX:+PrintCompilation's),
//   jitsim-epoch UPTIME_MS
//   jitsim-iter I START_NS DUR_NS BYTES         one per operation of thread 0
//   jitsim-check THREAD OPS REJECTED CRC32      per thread, over every output byte in order
// Usage: java [-Dpaced=true] JitsimTraceReplay TRACE [MESSAGES]
public class JitsimTraceReplay {
    static final String HEADER = "thread,at_us,op,transformation,key_size,size,aad_size";

    // Phase is one phase's settings and, per thread, its operations.
    static final class Phase {
        String name = "replay", cipher = "reinit", output = "new", setupInit = "none";
        int threads, chunk, parts = 1, inOffset, outOffset, ivLength = -1, tagLength = 128;
        long thinkNs, staggerNs;
        final List<Ops> ops = new ArrayList<>();

        Ops of(int thread) {
            while (ops.size() <= thread) ops.add(new Ops());
            return ops.get(thread);
        }
    }

    // Ops are one thread's operations in a phase: transformation index, key bits, sizes, flags.
    static final class Ops {
        int n;
        int[] tr = new int[16], bits = new int[16], size = new int[16], aad = new int[16];
        boolean[] decrypt = new boolean[16], corrupt = new boolean[16];
        long[] atNs = new long[16];

        void add(int t, int b, int s, int a, boolean d, boolean c, long at) {
            if (n == tr.length) {
                int m = 2 * n;
                tr = java.util.Arrays.copyOf(tr, m); bits = java.util.Arrays.copyOf(bits, m);
                size = java.util.Arrays.copyOf(size, m); aad = java.util.Arrays.copyOf(aad, m);
                decrypt = java.util.Arrays.copyOf(decrypt, m); corrupt = java.util.Arrays.copyOf(corrupt, m);
                atNs = java.util.Arrays.copyOf(atNs, m);
            }
            tr[n] = t; bits[n] = b; size[n] = s; aad[n] = a; decrypt[n] = d; corrupt[n] = c; atNs[n] = at;
            n++;
        }
    }

    static final List<String> TRANSFORMATIONS = new ArrayList<>();
    static final Map<String, byte[]> MESSAGES = new HashMap<>();
    static final int MAX_OPS = 2_000_000;

    // fill is jitsim's pattern: byte j is (j mod 256)*131 + salt*29 + 7, mod 256.
    static byte[] fill(int n, int salt) {
        byte[] b = new byte[n];
        for (int j = 0; j < n; j++) b[j] = (byte) ((j & 0xff) * 131 + salt * 29 + 7);
        return b;
    }

    static void next(byte[] iv) { for (int j = iv.length - 1; j >= 0 && ++iv[j] == 0; j--) { } }

    static String mode(String tr) { return tr.split("/")[1].toUpperCase(); }

    static int defaultIvLength(String tr) {
        switch (mode(tr)) {
            case "GCM": return 12;
            case "ECB": return 0;
            default: return 16;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            throw new IllegalArgumentException("usage: JitsimTraceReplay TRACE [MESSAGES]");
        }
        List<Phase> phases = read(args[0]);
        if (args.length == 2) readMessages(args[1]);
        boolean paced = Boolean.getBoolean("paced");
        long[] counts = new long[256], rejected = new long[256];
        CRC32[] crcs = new CRC32[256]; // one running checksum per thread index, across phases
        int[] used = new int[1];
        long t0 = System.nanoTime();
        System.err.println("jitsim-epoch " + ManagementFactory.getRuntimeMXBean().getUptime());
        int index = 0;
        for (int pi = 0; pi < phases.size(); pi++) {
            Phase p = phases.get(pi);
            int n = Math.max(p.threads, p.ops.size());
            used[0] = Math.max(used[0], n);
            CyclicBarrier start = new CyclicBarrier(n);
            Ops zero = p.of(0);
            long[] st = new long[zero.n], du = new long[zero.n];
            Thread[] ts = new Thread[n];
            Throwable[] failed = new Throwable[1];
            final int phaseIndex = pi;
            for (int id = 0; id < n; id++) {
                final int tid = id;
                ts[id] = new Thread(() -> {
                    try {
                        long[] r = replay(phaseIndex, p, tid, p.of(tid), crcs[tid], start, t0, paced, tid == 0 ? st : null, du);
                        counts[tid] += r[0]; // each index is one thread's; join publishes it
                        rejected[tid] += r[1];
                    } catch (Throwable e) {
                        synchronized (failed) { if (failed[0] == null) failed[0] = e; }
                        start.reset();
                    }
                }, tid == 0 ? "main-replay" : "Thread-" + tid);
            }
            for (int id = 0; id < n; id++) if (crcs[id] == null) crcs[id] = new CRC32();
            for (Thread t : ts) t.start();
            for (Thread t : ts) t.join();
            if (failed[0] != null) {
                throw new RuntimeException("phase " + p.name + ": " + failed[0], failed[0]);
            }
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < zero.n; i++) {
                sb.append("jitsim-iter ").append(index++).append(' ').append(st[i]).append(' ').append(du[i])
                        .append(' ').append(zero.size[i]).append('\n');
            }
            System.err.print(sb);
        }
        for (int id = 0; id < used[0]; id++) {
            System.err.println("jitsim-check " + id + " " + counts[id] + " " + rejected[id] + " " + crcs[id].getValue());
        }
    }

    // replay runs thread tid's operations of phase p and returns {operations, rejected}.
    static long[] replay(int pi, Phase p, int tid, Ops ops, CRC32 crc, CyclicBarrier start, long t0, boolean paced,
            long[] st, long[] du) throws Exception {
        Map<String, Cipher> ciphers = new HashMap<>(), decs = new HashMap<>();
        Map<String, byte[]> ivs = new HashMap<>();
        int maxIn = 0;
        for (int i = 0; i < ops.n; i++) {
            int len = ops.size[i] + 64;
            if (ops.decrypt[i]) len = Math.max(len, message(pi, ops, i).length);
            maxIn = Math.max(maxIn, len);
        }
        byte[] in = new byte[p.inOffset + maxIn];
        byte[] out = p.output.equals("separate") ? new byte[p.outOffset + maxIn + 32] : null;
        // Ciphers made before the start line, as jitsim's engine makes them.
        for (int i = 0; i < ops.n; i++) {
            String tr = TRANSFORMATIONS.get(ops.tr[i]);
            String k = tr + "/" + ops.bits[i];
            if (p.cipher.equals("reinit") && !ciphers.containsKey(k)) {
                Cipher c = Cipher.getInstance(tr);
                // setup_init: initialised once here too, to decrypt with the messages' IV or to
                // encrypt with the thread's IV before its first step.
                if (p.setupInit.equals("decrypt")) init(c, Cipher.DECRYPT_MODE, tr, ops.bits[i], fill(ivLength(p, tr), 50), p);
                if (p.setupInit.equals("encrypt")) init(c, Cipher.ENCRYPT_MODE, tr, ops.bits[i], fill(ivLength(p, tr), 100 + tid), p);
                ciphers.put(k, c);
            }
            if (p.cipher.equals("reuse") && !ciphers.containsKey(k) && !decs.containsKey(k)) {
                // Init once: an encrypting Cipher with the thread's IV, a decrypting one with the messages'.
                boolean anyEnc = false, anyDec = false;
                for (int j = 0; j < ops.n; j++) {
                    if (ops.tr[j] == ops.tr[i] && ops.bits[j] == ops.bits[i]) {
                        anyEnc |= !ops.decrypt[j];
                        anyDec |= ops.decrypt[j];
                    }
                }
                if (anyEnc) {
                    Cipher c = Cipher.getInstance(tr);
                    init(c, Cipher.ENCRYPT_MODE, tr, ops.bits[i], fill(ivLength(p, tr), 100 + tid), p);
                    ciphers.put(k, c);
                }
                if (anyDec) {
                    Cipher c = Cipher.getInstance(tr);
                    init(c, Cipher.DECRYPT_MODE, tr, ops.bits[i], fill(ivLength(p, tr), 50), p);
                    decs.put(k, c);
                }
            }
        }
        start.await();
        if (p.staggerNs > 0) sleep(tid * p.staggerNs);
        long begin = System.nanoTime(), rej = 0;
        for (int i = 0; i < ops.n; i++) {
            if (paced) {
                long wait = begin + ops.atNs[i] - System.nanoTime();
                if (wait > 0) sleep(wait);
            }
            String tr = TRANSFORMATIONS.get(ops.tr[i]);
            String k = tr + "/" + ops.bits[i];
            int ivLen = ivLength(p, tr);
            boolean dec = ops.decrypt[i], corrupt = ops.corrupt[i];
            byte[] input, iv, aad = fill(ops.aad[i], 2);
            if (dec) {
                input = message(pi, ops, i);
                iv = fill(ivLen, 50);
            } else {
                input = fill(ops.size[i], 1);
                iv = ivs.computeIfAbsent(k, x -> fill(ivLen, 100 + tid));
                if (!p.cipher.equals("reuse") && ivLen > 0) next(iv);
            }
            System.arraycopy(input, 0, in, p.inOffset, input.length);
            if (corrupt) in[p.inOffset + input.length - 1] ^= (byte) 0x80;
            int mode = dec ? Cipher.DECRYPT_MODE : Cipher.ENCRYPT_MODE;
            byte[] o = p.output.equals("in-place") ? in : out;
            int oOfs = p.output.equals("in-place") ? p.inOffset : p.outOffset;
            byte[] result = null;
            int w = 0;
            long s = System.nanoTime();
            try {
                Cipher c;
                if (p.cipher.equals("new")) {
                    c = Cipher.getInstance(tr);
                    init(c, mode, tr, ops.bits[i], iv, p);
                } else if (p.cipher.equals("reinit")) {
                    c = ciphers.get(k);
                    init(c, mode, tr, ops.bits[i], iv, p);
                } else {
                    c = dec ? decs.get(k) : ciphers.get(k);
                }
                if (aad.length > 0) c.updateAAD(aad);
                // Updates: chunk-byte parts while more than one remains, or parts-1 of len/parts bytes.
                int pos = 0, len = input.length, step = p.parts > 1 ? len / p.parts : p.chunk, updates = 0;
                if (o == null) {
                    java.io.ByteArrayOutputStream acc = null;
                    for (; p.parts > 1 ? updates < p.parts - 1 : step > 0 && len - pos > step; updates++) {
                        byte[] b = c.update(in, p.inOffset + pos, step);
                        if (acc == null) acc = new java.io.ByteArrayOutputStream();
                        if (b != null) acc.write(b, 0, b.length);
                        pos += step;
                    }
                    result = c.doFinal(in, p.inOffset + pos, len - pos);
                    if (acc != null) {
                        acc.write(result, 0, result.length);
                        result = acc.toByteArray();
                    }
                } else {
                    for (; p.parts > 1 ? updates < p.parts - 1 : step > 0 && len - pos > step; updates++) {
                        w += c.update(in, p.inOffset + pos, step, o, oOfs + w);
                        pos += step;
                    }
                    w += c.doFinal(in, p.inOffset + pos, len - pos, o, oOfs + w);
                }
                if (corrupt) throw new IllegalStateException("operation " + (i + 1) + ": a corrupted tag was accepted");
            } catch (AEADBadTagException e) {
                if (!corrupt) throw e;
                rej++;
            }
            long e = System.nanoTime();
            if (st != null) {
                st[i] = s - t0;
                du[i] = e - s;
            }
            if (!corrupt) {
                if (result != null) crc.update(result, 0, result.length);
                else crc.update(o, oOfs, w);
            }
            if (p.thinkNs > 0) sleep(p.thinkNs);
        }
        return new long[] {ops.n, rej};
    }

    static int ivLength(Phase p, String tr) {
        int d = defaultIvLength(tr);
        return p.ivLength >= 0 && d > 0 ? p.ivLength : d;
    }

    static void init(Cipher c, int mode, String tr, int bits, byte[] iv, Phase p) throws Exception {
        SecretKeySpec key = new SecretKeySpec(fill(bits / 8, bits), "AES");
        switch (mode(tr)) {
            case "GCM": c.init(mode, key, new GCMParameterSpec(p.tagLength, iv.clone())); break;
            case "ECB": c.init(mode, key); break;
            default: c.init(mode, key, new IvParameterSpec(iv.clone()));
        }
    }

    static byte[] message(int pi, Ops ops, int i) {
        String k = pi + "/" + TRANSFORMATIONS.get(ops.tr[i]) + "/" + ops.bits[i] + "/" + ops.size[i] + "/" + ops.aad[i];
        byte[] m = MESSAGES.get(k);
        if (m == null) {
            // A recorded trace's phase is -1 in the messages file.
            m = MESSAGES.get("-1/" + k.substring(k.indexOf('/') + 1));
        }
        if (m == null) throw new IllegalStateException("no prepared message for decryption " + k);
        return m;
    }

    // sleep waits ns nanoseconds (parkNanos may return early).
    static void sleep(long ns) {
        long end = System.nanoTime() + ns;
        for (long left = ns; left > 0; left = end - System.nanoTime()) LockSupport.parkNanos(left);
    }

    // read parses the trace; an error names TRACE:LINE.
    static List<Phase> read(String file) throws IOException {
        List<Phase> phases = new ArrayList<>();
        Phase cur = null;
        boolean corrupt = false, header = false;
        long total = 0;
        try (BufferedReader r = new BufferedReader(new FileReader(file))) {
            String line;
            int no = 0;
            while ((line = r.readLine()) != null) {
                no++;
                String s = line.trim();
                try {
                    if (s.isEmpty()) continue;
                    if (s.startsWith("#")) {
                        String c = s.substring(1).trim();
                        if (c.startsWith("jitsim-phase ")) {
                            cur = phase(c.substring("jitsim-phase ".length()));
                            phases.add(cur);
                        } else if (c.equals("jitsim-corrupt")) {
                            corrupt = true;
                        }
                        continue;
                    }
                    if (!header) {
                        if (!s.equals(HEADER)) throw new IllegalArgumentException("want the header " + HEADER);
                        header = true;
                        continue;
                    }
                    String[] f = s.split(",", -1);
                    if (f.length != 7) throw new IllegalArgumentException(f.length + " fields, want 7");
                    int thread = Integer.parseInt(f[0].trim());
                    if (thread < 0 || thread > 255) throw new IllegalArgumentException("thread " + thread + ": want 0 to 255");
                    long at = (long) (Double.parseDouble(f[1].trim()) * 1e3);
                    String op = f[2].trim();
                    if (!op.equals("encrypt") && !op.equals("decrypt")) throw new IllegalArgumentException("op " + op);
                    String tr = f[3].trim();
                    int t = TRANSFORMATIONS.indexOf(tr);
                    if (t < 0) {
                        TRANSFORMATIONS.add(tr);
                        t = TRANSFORMATIONS.size() - 1;
                    }
                    int bits = Integer.parseInt(f[4].trim()), size = Integer.parseInt(f[5].trim()), aad = Integer.parseInt(f[6].trim());
                    if (bits != 128 && bits != 192 && bits != 256) throw new IllegalArgumentException("key_size " + bits);
                    if (size < 0 || aad < 0 || size > (1 << 24) || aad > (1 << 24)) throw new IllegalArgumentException("size " + size + " or aad_size " + aad);
                    if (corrupt && !op.equals("decrypt")) throw new IllegalArgumentException("jitsim-corrupt before an encryption");
                    if (cur == null) {
                        cur = new Phase();
                        phases.add(cur);
                    }
                    if (++total > MAX_OPS) throw new IllegalArgumentException("more than " + MAX_OPS + " operations");
                    cur.of(thread).add(t, bits, size, aad, op.equals("decrypt"), corrupt, at);
                    corrupt = false;
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException(file + ":" + no + ": " + e.getMessage(), e);
                }
            }
        }
        if (!header) throw new IllegalArgumentException(file + ": no header " + HEADER);
        return phases;
    }

    static Phase phase(String spec) {
        Phase p = new Phase();
        int at = spec.indexOf("name=");
        if (at >= 0) {
            p.name = spec.substring(at + 5);
            spec = spec.substring(0, at);
        }
        for (String kv : spec.trim().split("\\s+")) {
            if (kv.isEmpty()) continue;
            int eq = kv.indexOf('=');
            if (eq < 0) throw new IllegalArgumentException("jitsim-phase: " + kv + " is not key=value");
            String k = kv.substring(0, eq), v = kv.substring(eq + 1);
            switch (k) {
                case "threads": p.threads = Integer.parseInt(v); break;
                case "cipher": p.cipher = v; break;
                case "chunk": p.chunk = Integer.parseInt(v); break;
                case "parts": p.parts = Integer.parseInt(v); break;
                case "output": p.output = v; break;
                case "in_offset": p.inOffset = Integer.parseInt(v); break;
                case "out_offset": p.outOffset = Integer.parseInt(v); break;
                case "iv_length": p.ivLength = Integer.parseInt(v); break;
                case "tag_length": p.tagLength = Integer.parseInt(v); break;
                case "think_ns": p.thinkNs = Long.parseLong(v); break;
                case "stagger_ns": p.staggerNs = Long.parseLong(v); break;
                case "setup_init": p.setupInit = v; break;
                default: throw new IllegalArgumentException("jitsim-phase: unknown key " + k);
            }
        }
        if (p.parts < 1 || p.parts > 1024 || p.parts > 1 && p.chunk > 0) throw new IllegalArgumentException("jitsim-phase: parts " + p.parts);
        if (p.threads < 0 || p.threads > 256) throw new IllegalArgumentException("jitsim-phase: threads " + p.threads);
        if (!p.cipher.matches("new|reinit|reuse")) throw new IllegalArgumentException("jitsim-phase: cipher " + p.cipher);
        if (!p.output.matches("new|separate|in-place")) throw new IllegalArgumentException("jitsim-phase: output " + p.output);
        if (!p.setupInit.matches("none|encrypt|decrypt")) throw new IllegalArgumentException("jitsim-phase: setup_init " + p.setupInit);
        return p;
    }

    static void readMessages(String file) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(file)))) {
            if (in.readInt() != 0x4A53494D || in.readInt() != 1) throw new IOException(file + ": not a jitsim messages file");
            int n = in.readInt();
            for (int i = 0; i < n; i++) {
                int phase = in.readInt();
                String tr = in.readUTF();
                int bits = in.readInt(), size = in.readInt(), aad = in.readInt(), len = in.readInt();
                if (len < 0 || len > (1 << 24) + 64) throw new IOException(file + ": message " + i + " of " + len + " bytes");
                byte[] ct = new byte[len];
                in.readFully(ct);
                MESSAGES.put(phase + "/" + tr + "/" + bits + "/" + size + "/" + aad, ct);
            }
        }
    }
}
