import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.lang.management.ManagementFactory;
import java.util.Random;

// The real-JVM twin of jitsim's benchmark scenarios (AESGCMBench, AESGCMUpdateAAD,
// CBCThroughput, ModeLoop) for jitsim warmup --jvm and validate: the scenario's operation, with
// its -D properties and defaults, run for warmupIterations + iterations of opsPerIteration
// operations. It prints one line per iteration on stderr (stdout is -XX:+PrintCompilation's,
// whose compiler threads would split lines):
//   jitsim-epoch UPTIME_MS
//   jitsim-iter I START_NS DUR_NS
//   jitsim-cpu I CPU_NS   (the main thread's CPU time over iteration I, where the JVM measures it)
// The management beans the loop reads are loaded before the scenario's set-up, so that the
// JVM's compiles of their code are not still running when the workload starts.
// Scenario Idle is the harness around no workload, for what the JVM compiles of its own (the
// JDK's and this loop's code) while a workload warms up: a GCM cipher's first use (set-up and
// one 16-byte encryption, as a workload's set-up and first operation load the JCE), then
// operations that spin for -DspinNs=N nanoseconds each (default 200000) and do no crypto; it
// also prints, before the epoch,
//   jitsim-ready NS       (nanoseconds from the return of the first Cipher.getInstance to the
//                          loop's start)
// Usage: java [-Dprop=value…] JitsimBench SCENARIO warmupIterations iterations opsPerIteration
public class JitsimBench {
    interface Op { byte[] run() throws Exception; }

    // ready is when the first GCM Cipher.getInstance returned (System.nanoTime).
    static long ready;

    static String prop(String name, String def) { return System.getProperty(name, def); }

    static int intProp(String name, int def) {
        String v = System.getProperty(name);
        if (v == null) return def;
        return Integer.parseInt(v.trim());
    }

    static void next(byte[] iv) { for (int j = iv.length - 1; j >= 0 && ++iv[j] == 0; j--) { } }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: JitsimBench SCENARIO warmupIterations iterations opsPerIteration");
        }
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        java.lang.management.RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
        boolean cpu = threads.isCurrentThreadCpuTimeSupported();
        String scenario = args[0];
        int warm = Integer.parseInt(args[1]), iters = Integer.parseInt(args[2]), ops = Integer.parseInt(args[3]);
        Random rnd = new Random(7184394);
        Op op;
        if (scenario.equals("AESGCMBench")) {
            op = gcm(rnd, prop("op", "encrypt"), intProp("dataSize", 1024), intProp("keyLength", 128), 0);
        } else if (scenario.equals("AESGCMUpdateAAD")) {
            op = gcm(rnd, prop("op", "decrypt"), 0, intProp("keySize", 128), intProp("aadSize", 1048576));
        } else if (scenario.equals("CBCThroughput")) {
            op = block(rnd, "AES/CBC/PKCS5Padding", "encrypt", intProp("msgSize", 10240), intProp("keySize", 128));
        } else if (scenario.equals("ModeLoop")) {
            String mode = prop("mode", "GCM");
            int size = intProp("dataSize", 16384);
            if (mode.equals("GCM")) op = gcm(rnd, prop("op", "encrypt"), size, 128, 0);
            else if (mode.equals("CBC")) op = block(rnd, "AES/CBC/NoPadding", prop("op", "encrypt"), size, 128);
            else if (mode.equals("CTR")) op = block(rnd, "AES/CTR/NoPadding", prop("op", "encrypt"), size, 128);
            else throw new IllegalArgumentException("mode=" + mode + ": GCM, CBC or CTR");
        } else if (scenario.equals("Idle")) {
            gcm(rnd, "encrypt", 16, 128, 0).run(); // sets ready after its getInstance
            long spin = intProp("spinNs", 200000);
            byte[] none = new byte[0];
            op = () -> {
                long end = System.nanoTime() + spin;
                while (System.nanoTime() < end) { }
                return none;
            };
        } else {
            throw new IllegalArgumentException("scenario " + scenario
                    + ": the twin runs AESGCMBench, AESGCMUpdateAAD, CBCThroughput, ModeLoop and Idle");
        }
        long sink = 0;
        long t0 = System.nanoTime();
        if (scenario.equals("Idle")) System.err.println("jitsim-ready " + (t0 - ready));
        System.err.println("jitsim-epoch " + runtime.getUptime());
        for (int i = 0; i < warm + iters; i++) {
            long sc = cpu ? threads.getCurrentThreadCpuTime() : 0;
            long s = System.nanoTime();
            for (int k = 0; k < ops; k++) {
                byte[] out = op.run();
                sink += out.length == 0 ? 0 : out[out.length - 1];
            }
            long e = System.nanoTime(), ec = cpu ? threads.getCurrentThreadCpuTime() : 0;
            System.err.println("jitsim-iter " + i + " " + (s - t0) + " " + (e - s));
            if (cpu) System.err.println("jitsim-cpu " + i + " " + (ec - sc));
        }
        System.err.println("jitsim-sink " + sink);
    }

    // gcm is a GCM encryption (a fresh IV each time) or decryption (one ciphertext, its IV
    // again), of size bytes with aad bytes of AAD.
    static Op gcm(Random rnd, String dir, int size, int bits, int aadSize) throws Exception {
        byte[] key = new byte[bits / 8], data = new byte[size], iv = new byte[12], aad = new byte[aadSize];
        rnd.nextBytes(key);
        rnd.nextBytes(data);
        rnd.nextBytes(iv);
        rnd.nextBytes(aad);
        SecretKeySpec ks = new SecretKeySpec(key, "AES");
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        if (ready == 0) ready = System.nanoTime();
        switch (dir) {
            case "encrypt":
                return () -> {
                    next(iv);
                    c.init(Cipher.ENCRYPT_MODE, ks, new GCMParameterSpec(128, iv));
                    if (aad.length > 0) c.updateAAD(aad);
                    return c.doFinal(data);
                };
            case "decrypt":
                GCMParameterSpec fixed = new GCMParameterSpec(128, iv.clone());
                c.init(Cipher.ENCRYPT_MODE, ks, fixed);
                if (aad.length > 0) c.updateAAD(aad);
                byte[] ct = c.doFinal(data);
                return () -> {
                    c.init(Cipher.DECRYPT_MODE, ks, fixed);
                    if (aad.length > 0) c.updateAAD(aad);
                    return c.doFinal(ct);
                };
            default:
                throw new IllegalArgumentException("op=" + dir + ": encrypt or decrypt");
        }
    }

    // block is a doFinal of size bytes on a cipher initialised once (CBC, CTR).
    static Op block(Random rnd, String transformation, String dir, int size, int bits) throws Exception {
        byte[] key = new byte[bits / 8], data = new byte[size], iv = new byte[16];
        rnd.nextBytes(key);
        rnd.nextBytes(data);
        rnd.nextBytes(iv);
        SecretKeySpec ks = new SecretKeySpec(key, "AES");
        Cipher c = Cipher.getInstance(transformation);
        c.init(Cipher.ENCRYPT_MODE, ks, new IvParameterSpec(iv));
        switch (dir) {
            case "encrypt":
                return () -> c.doFinal(data);
            case "decrypt":
                byte[] ct = c.doFinal(data);
                c.init(Cipher.DECRYPT_MODE, ks, new IvParameterSpec(iv));
                return () -> c.doFinal(ct);
            default:
                throw new IllegalArgumentException("op=" + dir + ": encrypt or decrypt");
        }
    }
}
