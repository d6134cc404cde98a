import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * junitbot's carver: a Java agent that records the arguments the repository's own tests pass to the public
 * methods and constructors of the classes under test, as Java source text a generated test can paste (TestGen-obs
 * carves tests from observed runs). Attached beside JaCoCo to the baseline run of the existing tests.
 *
 * <p>Agent options: {@code <output file>|<binary class name>,<binary class name>...}. Each distinct call is one
 * JSON line {@code {"c": class, "m": method ("<init>"), "s": "(java.lang.String[],int)", "a": [text or null]}};
 * an argument that cannot be rebuilt from text (an object, a collection, a long string) is {@code null}. At most
 * {@value #PER_MEMBER} distinct argument lists per member, {@value #MAX_LINES} lines in all.
 *
 * <p>Nothing here may break the tests it watches: the agent that cannot start (no Byte Buddy, an unknown class
 * file version) leaves the run as it was, and a call it cannot record is not recorded. Only this class is loaded
 * before Byte Buddy is known to be there; {@link Installer} holds every Byte Buddy reference.
 */
public final class JunitbotCarver {
    private static final int PER_MEMBER = 24;
    private static final int MAX_LINES = 4000;
    private static final int MAX_TEXT = 120;
    private static final int MAX_ITEMS = 12;

    private static final Map<String, Integer> PER_KEY = new HashMap<>();
    private static final Set<String> SEEN = new HashSet<>();
    private static BufferedWriter out;
    private static int lines;
    private static final ThreadLocal<Boolean> BUSY = new ThreadLocal<>();

    private JunitbotCarver() {
    }

    public static void premain(String options, Instrumentation instrumentation) {
        try {
            String[] parts = options == null ? new String[0] : options.split("\\|", 2);
            if (parts.length < 2) {
                return;
            }
            out = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(Paths.get(parts[0]),
                    StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE),
                    StandardCharsets.UTF_8));
            Runtime.getRuntime().addShutdownHook(new Thread(JunitbotCarver::close));
            Installer.install(new HashSet<>(Arrays.asList(parts[1].split(","))), instrumentation);
        } catch (Throwable e) {
            System.err.println("junitbot carver not started: " + e);
        }
    }

    /** Called on entry to a public member of a class under test: the call's line, written once it has returned. */
    public static String describe(String owner, String method, String signature, Object[] arguments) {
        if (out == null || BUSY.get() != null) {
            return null;
        }
        BUSY.set(Boolean.TRUE);
        try {
            StringBuilder line = new StringBuilder("{\"c\":").append(json(owner)).append(",\"m\":")
                    .append(json(method)).append(",\"s\":").append(json(signature)).append(",\"a\":[");
            for (int i = 0; i < arguments.length; i++) {
                line.append(i > 0 ? "," : "");
                String text = source(arguments[i]);
                line.append(text == null ? "null" : json(text));
            }
            return line.append("]").toString();
        } catch (Throwable ignored) {
            return null;  // a value this agent cannot read is one call less recorded, never a failed test
        } finally {
            BUSY.remove();
        }
    }

    /** Called when that member has returned or thrown (a constructor: only when it returned). */
    public static void written(String described, boolean threw) {
        if (described == null) {
            return;
        }
        try {
            String line = described + (threw ? ",\"t\":true}" : "}");
            String key = described.substring(0, described.indexOf(",\"a\":["));
            synchronized (JunitbotCarver.class) {
                int count = PER_KEY.getOrDefault(key, 0);
                if (lines >= MAX_LINES || count >= PER_MEMBER || !SEEN.add(line)) {
                    return;
                }
                PER_KEY.put(key, count + 1);
                lines++;
                out.write(line);
                out.write('\n');
            }
        } catch (Throwable ignored) {
            // the test goes on whatever this agent could not write
        }
    }

    private static synchronized void close() {
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException ignored) {
            // the run is over: what was written stays
        }
    }

    /** The value as Java source text, or null where text cannot rebuild it. */
    static String source(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String) {
            String text = (String) value;
            return text.length() > MAX_TEXT ? null : quote(text, '"');
        }
        if (value instanceof Character) {
            return quote(String.valueOf(value), '\'');
        }
        if (value instanceof Boolean || value instanceof Integer) {
            return String.valueOf(value);
        }
        if (value instanceof Long) {
            return value + "L";
        }
        if (value instanceof Short) {
            return "(short) " + value;
        }
        if (value instanceof Byte) {
            return "(byte) " + value;
        }
        if (value instanceof Double) {
            double number = (Double) value;
            return Double.isNaN(number) ? "Double.NaN" : Double.isInfinite(number)
                    ? (number > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY") : String.valueOf(number);
        }
        if (value instanceof Float) {
            float number = (Float) value;
            return Float.isNaN(number) ? "Float.NaN" : Float.isInfinite(number)
                    ? (number > 0 ? "Float.POSITIVE_INFINITY" : "Float.NEGATIVE_INFINITY") : number + "f";
        }
        if (value instanceof Enum) {
            String type = ((Enum<?>) value).getDeclaringClass().getCanonicalName();
            return type == null ? null : type + "." + ((Enum<?>) value).name();
        }
        Class<?> type = value.getClass();
        if ((value instanceof java.util.List || value instanceof java.util.Set)
                && type.getName().startsWith("java.util.")) {
            return collection((java.util.Collection<?>) value, value instanceof java.util.Set);
        }
        if (type.isArray() && !type.getComponentType().isArray()) {
            Class<?> element = type.getComponentType();
            String name = element.isPrimitive() || element == String.class ? element.getSimpleName()
                    : element.getCanonicalName();
            int length = Array.getLength(value);
            if (name == null || length > MAX_ITEMS || (!element.isPrimitive() && element != String.class
                    && !element.isEnum())) {
                return null;
            }
            StringBuilder text = new StringBuilder("new ").append(name).append("[] {");
            for (int i = 0; i < length; i++) {
                String item = source(Array.get(value, i));
                if (item == null) {
                    return null;
                }
                text.append(i > 0 ? ", " : " ").append(item);
            }
            return text.append(length > 0 ? " }" : "}").toString();
        }
        return null;
    }

    /** A JDK list or set of plain values: {@code java.util.Arrays.asList(..)}, a set as a LinkedHashSet of it. */
    private static String collection(java.util.Collection<?> items, boolean set) {
        if (items.size() > MAX_ITEMS) {
            return null;
        }
        StringBuilder text = new StringBuilder(set ? "new java.util.LinkedHashSet<>(java.util.Arrays.asList("
                : "java.util.Arrays.asList(");
        int index = 0;
        for (Object item : items) {
            String written = item == null || item instanceof java.util.Collection || item.getClass().isArray()
                    ? null : source(item);
            if (written == null) {
                return null;
            }
            text.append(index++ > 0 ? ", " : "").append(written);
        }
        return text.append(set ? "))" : ")").toString();
    }

    private static String quote(String text, char mark) {
        StringBuilder out = new StringBuilder().append(mark);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c == mark) {
                        out.append('\\').append(c);
                    } else if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        return out.append(mark).toString();
    }

    private static String json(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /** Every Byte Buddy reference: loaded only once premain knows the agent may start. */
    static final class Installer {
        private Installer() {
        }

        static void install(Set<String> classes, Instrumentation instrumentation) {
            new AgentBuilder.Default()
                    .type((type, loader, module, redefined, domain) -> classes.contains(type.getName()))
                    .transform((builder, type, loader, module, domain) -> builder
                            .visit(Advice.to(Entry.class, MethodExit.class).on(ElementMatchers.isPublic()
                                    .and(ElementMatchers.not(ElementMatchers.isAbstract()))
                                    .and(ElementMatchers.isMethod())))
                            .visit(Advice.to(Entry.class, ConstructorExit.class).on(ElementMatchers.isPublic()
                                    .and(ElementMatchers.isConstructor()))))
                    .installOn(instrumentation);
        }
    }

    /** Inlined at the start of each public member of a class under test: its arguments, described. */
    static final class Entry {
        private Entry() {
        }

        @Advice.OnMethodEnter
        static String enter(@Advice.Origin("#t") String owner, @Advice.Origin("#m") String method,
                            @Advice.Origin("#s") String signature, @Advice.AllArguments Object[] arguments) {
            return JunitbotCarver.describe(owner, method, signature, arguments);
        }
    }

    /** Inlined at the end of each public method: written, with whether it threw. */
    static final class MethodExit {
        private MethodExit() {
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class)
        static void exit(@Advice.Enter String described, @Advice.Thrown Throwable thrown) {
            JunitbotCarver.written(described, thrown != null);
        }
    }

    /** Inlined at the end of each public constructor: written only when it returned (Byte Buddy cannot catch in
     * one). */
    static final class ConstructorExit {
        private ConstructorExit() {
        }

        @Advice.OnMethodExit
        static void exit(@Advice.Enter String described) {
            JunitbotCarver.written(described, false);
        }
    }
}
