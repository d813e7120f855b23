import java.util.function.*;
import javax.crypto.*;
import javax.crypto.spec.*;

// Errors prints the exception class and message (or the result) the JDK's
// SunJCE provider gives for the cases jitsim's provider layer reproduces;
// jce/errors_test.go replays the same cases and compares with
// the recorded output of each JVM:
//
//   javac -d OUT Errors.java && java -cp OUT Errors > jdk17.txt
//   (the same with a JDK 25 java > jdk25.txt)
public class Errors {
    interface Case { Object run() throws Exception; }

    static void t(String name, Case c) {
        try {
            Object r = c.run();
            System.out.println(name + "\tOK\t" + (r instanceof byte[] b ? b.length : r));
        } catch (Throwable e) {
            System.out.println(name + "\t" + e.getClass().getName() + "\t" + e.getMessage());
        }
    }

    static SecretKeySpec key(int n) { return new SecretKeySpec(new byte[n], "AES"); }

    public static void main(String[] a) throws Exception {
        byte[] iv16 = new byte[16], iv12 = new byte[12];
        for (String tr : new String[] {"AES/FOO/NoPadding", "AES/CBC/FOOPadding", "AES/GCM/PKCS5Padding",
                "AES/CTR/PKCS5Padding", "AES/CBC", "AES//NoPadding", "DES/CBC/NoPadding", "AES/ECB/NoPadding/x",
                "aes/cbc/pkcs5padding", "AES", "AES/GCM/NoPadding", "AES/CBC/NoPadding", "AES/CTR/NoPadding", "",
                "AES/CBC/PKCS7Padding", "AES/CBC/ISO10126Padding", "AES/CFB/NoPadding"})
            t("getInstance " + tr, () -> Cipher.getInstance(tr).getAlgorithm());
        t("key15", () -> { Cipher c = Cipher.getInstance("AES/ECB/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(15)); return 0; });
        t("key0gcm", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(33), new GCMParameterSpec(128, iv12)); return 0; });
        t("notinit", () -> Cipher.getInstance("AES/ECB/NoPadding").doFinal(new byte[16]));
        t("ecb nopad 17", () -> { Cipher c = Cipher.getInstance("AES/ECB/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16)); return c.doFinal(new byte[17]); });
        t("cbc nopad 17", () -> { Cipher c = Cipher.getInstance("AES/CBC/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new IvParameterSpec(iv16)); return c.doFinal(new byte[17]); });
        t("cbc pkcs5 dec 17", () -> { Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding"); c.init(Cipher.DECRYPT_MODE, key(16), new IvParameterSpec(iv16)); return c.doFinal(new byte[17]); });
        t("cbc pkcs5 dec 0", () -> { Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding"); c.init(Cipher.DECRYPT_MODE, key(16), new IvParameterSpec(iv16)); return c.doFinal(new byte[0]); });
        t("cbc pkcs5 badpad", () -> { Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding"); c.init(Cipher.DECRYPT_MODE, key(16), new IvParameterSpec(iv16)); return c.doFinal(new byte[32]); });
        t("ecb pkcs5 badpad", () -> { Cipher c = Cipher.getInstance("AES/ECB/PKCS5Padding"); c.init(Cipher.DECRYPT_MODE, key(16)); return c.doFinal(new byte[16]); });
        t("cbc dec noiv", () -> { Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding"); c.init(Cipher.DECRYPT_MODE, key(16)); return 0; });
        t("cbc enc noiv", () -> { Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding"); c.init(Cipher.ENCRYPT_MODE, key(16)); return c.getIV(); });
        t("cbc iv8", () -> { Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding"); c.init(Cipher.ENCRYPT_MODE, key(16), new IvParameterSpec(new byte[8])); return 0; });
        t("ctr iv8", () -> { Cipher c = Cipher.getInstance("AES/CTR/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new IvParameterSpec(new byte[8])); return 0; });
        t("ecb iv", () -> { Cipher c = Cipher.getInstance("AES/ECB/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new IvParameterSpec(iv16)); return 0; });
        t("gcm ivspec", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new IvParameterSpec(iv12)); return 0; });
        t("gcm tlen 64", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new GCMParameterSpec(64, iv12)); return 0; });
        t("gcm tlen 95", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new GCMParameterSpec(95, iv12)); return 0; });
        t("gcm tlen 136", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new GCMParameterSpec(136, iv12)); return 0; });
        t("gcm iv0", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new GCMParameterSpec(128, new byte[0])); return 0; });
        t("gcm dec noparams", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.DECRYPT_MODE, key(16)); return 0; });
        t("gcm badtag", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.DECRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); return c.doFinal(new byte[40]); });
        t("gcm short", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.DECRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); return c.doFinal(new byte[15]); });
        t("gcm short96", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.DECRYPT_MODE, key(16), new GCMParameterSpec(96, iv12)); return c.doFinal(new byte[11]); });
        t("gcm reuse", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); c.doFinal(new byte[3]); return c.doFinal(new byte[3]); });
        t("gcm reinit same iv", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); c.doFinal(new byte[3]); c.init(Cipher.ENCRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); return 0; });
        t("gcm aad after update", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); c.update(new byte[20]); c.updateAAD(new byte[3]); return 0; });
        t("ecb aad", () -> { Cipher c = Cipher.getInstance("AES/ECB/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16)); c.updateAAD(new byte[3]); return 0; });
        t("ecb shortbuf", () -> { Cipher c = Cipher.getInstance("AES/ECB/PKCS5Padding"); c.init(Cipher.ENCRYPT_MODE, key(16)); return c.doFinal(new byte[20], 0, 20, new byte[20], 0); });
        t("cbc update shortbuf", () -> { Cipher c = Cipher.getInstance("AES/CBC/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new IvParameterSpec(iv16)); return c.update(new byte[32], 0, 32, new byte[20], 0); });
        t("gcm enc shortbuf", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); return c.doFinal(new byte[20], 0, 20, new byte[30], 0); });
        t("gcm enc update shortbuf", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); return c.update(new byte[40], 0, 40, new byte[20], 0); });
        t("gcm dec shortbuf", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.DECRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); return c.doFinal(new byte[40], 0, 40, new byte[10], 0); });
        t("ctr shortbuf", () -> { Cipher c = Cipher.getInstance("AES/CTR/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new IvParameterSpec(iv16)); return c.doFinal(new byte[20], 0, 20, new byte[19], 0); });
        t("gcm dec update", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.DECRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); return c.update(new byte[40]); });
        t("gcm enc update 40", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); return c.update(new byte[40]); });
        t("ctr update 20", () -> { Cipher c = Cipher.getInstance("AES/CTR/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new IvParameterSpec(iv16)); return c.update(new byte[20]); });
        t("cbc pkcs5 dec update 32", () -> { Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding"); c.init(Cipher.DECRYPT_MODE, key(16), new IvParameterSpec(iv16)); return c.update(new byte[32]); });
        t("badmode", () -> { Cipher c = Cipher.getInstance("AES/ECB/NoPadding"); c.init(7, key(16)); return 0; });
        t("wrapmode", () -> { Cipher c = Cipher.getInstance("AES/ECB/NoPadding"); c.init(Cipher.WRAP_MODE, key(16)); return c.doFinal(new byte[16]); });
        t("cbc pkcs5 dec shortbuf", () -> { Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding"); c.init(Cipher.ENCRYPT_MODE, key(16), new IvParameterSpec(iv16)); byte[] ct = c.doFinal(new byte[20]); c.init(Cipher.DECRYPT_MODE, key(16), new IvParameterSpec(iv16)); return c.doFinal(ct, 0, ct.length, new byte[19], 0); });
        t("cbc pkcs5 dec shortbuf16", () -> { Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding"); c.init(Cipher.ENCRYPT_MODE, key(16), new IvParameterSpec(iv16)); byte[] ct = c.doFinal(new byte[20]); c.init(Cipher.DECRYPT_MODE, key(16), new IvParameterSpec(iv16)); return c.doFinal(ct, 0, ct.length, new byte[16], 0); });
        t("gcm enc after final update", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); c.doFinal(new byte[3]); return c.update(new byte[3]); });
        t("gcm enc after final aad", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); c.doFinal(new byte[3]); c.updateAAD(new byte[3]); return 0; });
        t("gcm dec twice", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); byte[] ct = c.doFinal(new byte[3]); c.init(Cipher.DECRYPT_MODE, key(16), new GCMParameterSpec(128, iv12)); c.doFinal(ct); return c.doFinal(ct); });
        t("ctr enc noiv", () -> { Cipher c = Cipher.getInstance("AES/CTR/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16)); return c.getIV(); });
        t("gcm enc noparams", () -> { Cipher c = Cipher.getInstance("AES/GCM/NoPadding"); c.init(Cipher.ENCRYPT_MODE, key(16)); return c.getIV(); });
        for (String tr : new String[] {"AES_128/ECB/NoPadding", "AES_256/CBC/NoPadding", "AES_128/CBC/PKCS5Padding",
                "AES_128/CTR/NoPadding", "AES_192/GCM/NoPadding", "AES_128", "aes_128/ecb/nopadding", "AES_512/ECB/NoPadding"})
            for (int n : new int[] {16, 32})
                t("fixed " + tr + " " + n, () -> {
                    Cipher c = Cipher.getInstance(tr);
                    SecretKeySpec k = key(n);
                    if (tr.contains("GCM")) c.init(Cipher.ENCRYPT_MODE, k, new GCMParameterSpec(128, iv12));
                    else if (tr.contains("CBC") || tr.contains("CTR")) c.init(Cipher.ENCRYPT_MODE, k, new IvParameterSpec(iv16));
                    else c.init(Cipher.ENCRYPT_MODE, k);
                    return c.doFinal(new byte[16]);
                });
    }
}
