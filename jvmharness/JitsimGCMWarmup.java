import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.lang.management.ManagementFactory;
import java.util.Random;

// Runs AESGCMBench's loop for jitsim warmup --jvm and prints one line per iteration on
// stderr (stdout is -XX:+PrintCompilation's, whose compiler threads would split lines).
public class JitsimGCMWarmup {
    public static void main(String[] args) throws Exception {
        int warm = Integer.parseInt(args[0]), iters = Integer.parseInt(args[1]), ops = Integer.parseInt(args[2]);
        int size = Integer.getInteger("dataSize", 1024);
        int bits = Integer.getInteger("keyLength", 128);
        String op = System.getProperty("op", "encrypt");
        if (!op.equals("encrypt") && !op.equals("decrypt")) {
            throw new IllegalArgumentException("op=" + op + ": jitsim warmup --jvm runs encrypt or decrypt");
        }
        Random rnd = new Random(7184394);
        byte[] key = new byte[bits / 8], data = new byte[size], iv = new byte[12];
        rnd.nextBytes(key);
        rnd.nextBytes(data);
        rnd.nextBytes(iv);
        SecretKeySpec ks = new SecretKeySpec(key, "AES");
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        byte[] ct = null;
        GCMParameterSpec fixed = new GCMParameterSpec(128, iv.clone());
        if (op.equals("decrypt")) {
            c.init(Cipher.ENCRYPT_MODE, ks, fixed);
            ct = c.doFinal(data);
        }
        long sink = 0;
        long t0 = System.nanoTime();
        long up = ManagementFactory.getRuntimeMXBean().getUptime();
        System.err.println("jitsim-epoch " + up);
        for (int i = 0; i < warm + iters; i++) {
            long s = System.nanoTime();
            for (int k = 0; k < ops; k++) {
                byte[] out;
                if (ct == null) {
                    for (int j = iv.length - 1; j >= 0 && ++iv[j] == 0; j--) { }
                    c.init(Cipher.ENCRYPT_MODE, ks, new GCMParameterSpec(128, iv));
                    out = c.doFinal(data);
                } else {
                    c.init(Cipher.DECRYPT_MODE, ks, fixed);
                    out = c.doFinal(ct);
                }
                sink += out.length == 0 ? 0 : out[out.length - 1];
            }
            long e = System.nanoTime();
            System.err.println("jitsim-iter " + i + " " + (s - t0) + " " + (e - s));
        }
        System.err.println("jitsim-sink " + sink);
    }
}
