import java.io.PrintStream;
import java.security.Key;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Logs an application's Cipher operations as a jitsim trace (CSV, one line per operation:
 * thread,at_us,op,transformation,key_size,size,aad_size), which `jitsim run TRACE.csv` replays.
 * An application calls {@link #start} once, then {@link #log} after each doFinal; main is a
 * small demonstration that writes a trace of its own operations to stdout.
 */
public class JitsimTraceLog {
    public static final String HEADER = "thread,at_us,op,transformation,key_size,size,aad_size";
    private static final ConcurrentHashMap<Thread, Integer> IDS = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT = new AtomicInteger();
    private static volatile PrintStream out;
    private static long start;

    /** Starts a trace on ps: the header, and time zero. */
    public static synchronized void start(PrintStream ps) {
        out = ps;
        start = System.nanoTime();
        ps.println(HEADER);
    }

    /**
     * Logs one operation of cipher c (made with Cipher.getInstance of an AES transformation)
     * under key: whether it decrypted, its plaintext length and its AAD length.
     */
    public static void log(Cipher c, Key key, boolean decrypt, int plaintextLen, int aadLen) {
        PrintStream ps = out;
        if (ps == null) {
            throw new IllegalStateException("JitsimTraceLog.start was not called");
        }
        long ns = System.nanoTime() - start;
        int id = IDS.computeIfAbsent(Thread.currentThread(), t -> NEXT.getAndIncrement());
        if (id > 255) {
            throw new IllegalStateException("a jitsim trace has at most 256 threads");
        }
        String line = id + "," + (ns / 1000) + "." + String.format("%03d", ns % 1000) + ","
                + (decrypt ? "decrypt" : "encrypt") + "," + c.getAlgorithm() + ","
                + key.getEncoded().length * 8 + "," + plaintextLen + "," + aadLen;
        synchronized (ps) {
            ps.println(line);
        }
    }

    /** Demonstration: 2 threads sealing and opening GCM messages and CBC records; args: ops. */
    public static void main(String[] args) throws Exception {
        int ops = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        start(System.out);
        Thread[] threads = new Thread[2];
        Exception[] failed = new Exception[1];
        for (int t = 0; t < threads.length; t++) {
            final int seed = t;
            threads[t] = new Thread(() -> {
                try {
                    work(seed, ops);
                } catch (Exception e) {
                    failed[0] = e;
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failed[0] != null) {
            throw failed[0];
        }
    }

    private static void work(int seed, int ops) throws Exception {
        SecretKeySpec key = new SecretKeySpec(new byte[16 + 8 * seed], "AES");
        byte[] aad = new byte[13];
        for (int i = 0; i < ops; i++) {
            byte[] msg = new byte[100 + 37 * i];
            byte[] nonce = new byte[12];
            nonce[0] = (byte) i;
            nonce[1] = (byte) seed;
            Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
            gcm.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
            gcm.updateAAD(aad);
            byte[] ct = gcm.doFinal(msg);
            log(gcm, key, false, msg.length, aad.length);
            gcm.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, nonce));
            gcm.updateAAD(aad);
            byte[] pt = gcm.doFinal(ct);
            log(gcm, key, true, pt.length, aad.length);
            Cipher cbc = Cipher.getInstance("AES/CBC/PKCS5Padding");
            cbc.init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(new byte[16]));
            cbc.doFinal(msg);
            log(cbc, key, false, msg.length, 0);
        }
    }
}
