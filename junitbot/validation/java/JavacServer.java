import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * junitbot's warm javac: one JVM compiles request after request, so only the first pays for the JVM's start and for
 * javac's own classes being loaded and compiled (a small compile then costs about a tenth of a cold javac).
 *
 * <p>Reads from stdin, until it closes (junitbot exited), requests of: an int count, then that many arguments, each
 * an int length and UTF-8 bytes: javac's command line without the launcher's {@code -J} options. Answers on stdout:
 * javac's exit code, then its standard output and its diagnostics, each an int length and UTF-8 bytes. Each compile
 * runs on a thread of its own with the stack size given as the first argument (javac's parser recurses per nesting
 * level), and a fresh file manager, as a javac process would.
 */
public final class JavacServer {
    private JavacServer() {}

    public static void main(String[] args) throws Exception {
        long stackBytes = Long.parseLong(args[0]);
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(System.out));
        System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));  // answers only
        while (true) {
            String[] javacArgs;
            try {
                javacArgs = new String[in.readInt()];
            } catch (EOFException closed) {
                return;
            }
            for (int i = 0; i < javacArgs.length; i++) {
                javacArgs[i] = readText(in);
            }
            ByteArrayOutputStream stdout = new ByteArrayOutputStream();
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();
            int[] exitCode = {4};  // javac's "abnormal termination", should the compiler throw
            Thread compile = new Thread(null, () -> {
                try {
                    exitCode[0] = compiler.run(null, stdout, stderr, javacArgs);
                } catch (Throwable e) {
                    e.printStackTrace(new PrintStream(stderr, true, StandardCharsets.UTF_8));
                }
            }, "javac", stackBytes);
            compile.start();
            compile.join();
            out.writeInt(exitCode[0]);
            writeBytes(out, stdout.toByteArray());
            writeBytes(out, stderr.toByteArray());
            out.flush();
        }
    }

    private static String readText(DataInputStream in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }
}
