import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.util.Random;

// Encrypts one buffer over and over in one AES mode (CBC, CTR or GCM), so that the provider's
// methods reach C2: the loop behind the recorded PrintCompilation/PrintIntrinsics and
// LogCompilation transcripts that jitsim's own output is compared with.
public class JitsimModeLoop {
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int size = Integer.parseInt(args[1]), ops = Integer.parseInt(args[2]);
        Random rnd = new Random(7184394);
        byte[] key = new byte[16], data = new byte[size], iv = new byte[16];
        rnd.nextBytes(key);
        rnd.nextBytes(data);
        rnd.nextBytes(iv);
        SecretKeySpec ks = new SecretKeySpec(key, "AES");
        Cipher c;
        switch (mode) {
            case "CBC": c = Cipher.getInstance("AES/CBC/NoPadding"); break;
            case "CTR": c = Cipher.getInstance("AES/CTR/NoPadding"); break;
            case "GCM": c = Cipher.getInstance("AES/GCM/NoPadding"); break;
            default: throw new IllegalArgumentException("mode " + mode + ": CBC, CTR or GCM");
        }
        long sink = 0;
        for (int k = 0; k < ops; k++) {
            // a fresh IV each time: GCM refuses to encrypt twice under one key and IV
            for (int j = 11; j >= 0 && ++iv[j] == 0; j--) { }
            if (mode.equals("GCM")) {
                c.init(Cipher.ENCRYPT_MODE, ks, new GCMParameterSpec(128, iv, 0, 12));
            } else {
                c.init(Cipher.ENCRYPT_MODE, ks, new IvParameterSpec(iv));
            }
            byte[] out = c.doFinal(data);
            sink += out[out.length - 1];
        }
        System.err.println("jitsim-sink " + sink);
    }
}
