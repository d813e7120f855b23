// CodeSize prints, for each class named on the command line, one line per
// method with bytecode: "Class name descriptor code_length". It reads the
// class files of the running JDK's java.base through the jrt file system and
// takes code_length from each method's Code attribute (JVMS 4.7.3), the
// number HotSpot's Method::code_size returns and PrintCompilation prints as
// "(N bytes)". Run it with the JDK to measure: java CodeSize.java CLASS...
// (TestJavaSizeAgainstJDK in bytecode does).

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;

public class CodeSize {
    public static void main(String[] args) throws IOException {
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        for (String cls : args) {
            byte[] bytes = Files.readAllBytes(jrt.getPath("modules", "java.base", cls.replace('.', '/') + ".class"));
            print(cls, new DataInputStream(new ByteArrayInputStream(bytes)));
        }
    }

    static void print(String cls, DataInputStream in) throws IOException {
        in.readInt();                 // magic
        in.readUnsignedShort();       // minor
        in.readUnsignedShort();       // major
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();                    // Utf8
                case 7, 8, 16, 19, 20 -> in.readUnsignedShort();     // Class, String, MethodType, Module, Package
                case 15 -> { in.readUnsignedByte(); in.readUnsignedShort(); } // MethodHandle
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();    // Integer, Float, refs, NameAndType, (Invoke)Dynamic
                case 5, 6 -> { in.readLong(); i++; }                 // Long, Double take two slots
                default -> throw new IOException(cls + ": constant pool tag " + tag);
            }
        }
        in.readUnsignedShort();       // access flags
        in.readUnsignedShort();       // this_class
        in.readUnsignedShort();       // super_class
        int interfaces = in.readUnsignedShort();
        in.skipBytes(2 * interfaces);
        int fields = in.readUnsignedShort();
        for (int i = 0; i < fields; i++) {
            in.skipBytes(6);
            skipAttributes(in);
        }
        int methods = in.readUnsignedShort();
        for (int i = 0; i < methods; i++) {
            in.readUnsignedShort();   // access flags
            String name = utf8[in.readUnsignedShort()];
            String desc = utf8[in.readUnsignedShort()];
            int attrs = in.readUnsignedShort();
            for (int a = 0; a < attrs; a++) {
                String attr = utf8[in.readUnsignedShort()];
                int len = in.readInt();
                if (attr.equals("Code")) {
                    in.readUnsignedShort(); // max_stack
                    in.readUnsignedShort(); // max_locals
                    int codeLength = in.readInt();
                    System.out.println(cls + " " + name + " " + desc + " " + codeLength);
                    in.skipBytes(len - 8);
                } else {
                    in.skipBytes(len);
                }
            }
        }
    }

    static void skipAttributes(DataInputStream in) throws IOException {
        int attrs = in.readUnsignedShort();
        for (int a = 0; a < attrs; a++) {
            in.readUnsignedShort();
            in.skipBytes(in.readInt());
        }
    }
}
