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
 * <p>Agent options: {@code <output file>|<class>,<class>...[|<class>,<class>...]}, binary names: the classes under
 * test, then the repository's classes their members take as arguments. Each distinct call of a class under test is
 * one JSON line {@code {"c": class, "m": method ("<init>"), "s": "(java.lang.String[],int)", "a": [text or null],
 * "r": receiver}} ("r" where the instance method's receiver was seen built, below);
 * an argument that cannot be rebuilt from text (a long string, an object nobody saw built) is {@code null}. At
 * most {@value #PER_MEMBER} distinct calls per member, each argument list on at most
 * {@value #RECEIVERS_PER_ARGUMENTS} receivers, {@value #MAX_LINES} lines in all.
 *
 * <p>An object of either list built by a public constructor or a public static method of its own class, from
 * arguments that are all rebuilt, is remembered (weakly, at most {@value #MAX_BUILT}) with that call's text, and
 * is written as that call where it is passed on: {@code new demo.Range(1, 5)}, {@code demo.Money.of("GBP", 5)}.
 * What the tests did to it after it was built is not in that text.
 *
 * <p>Nothing here may break the tests it watches: the agent that cannot start (no Byte Buddy, an unknown class
 * file version) leaves the run as it was, and a call it cannot record is not recorded. Only this class is loaded
 * before Byte Buddy is known to be there; {@link Installer} holds every Byte Buddy reference.
 */
public final class JunitbotCarver {
    private static final int PER_MEMBER = 48;
    private static final int RECEIVERS_PER_ARGUMENTS = 2;
    private static final int MAX_LINES = 4000;
    private static final int MAX_TEXT = 120;
    private static final int MAX_ITEMS = 12;
    private static final int MAX_BUILT = 4096;
    private static final int MAX_EXPRESSION = 400;

    private static final Map<String, Integer> PER_KEY = new HashMap<>();
    private static final Map<String, Integer> PER_ARGUMENTS = new HashMap<>();
    private static final Set<String> SEEN = new HashSet<>();
    private static BufferedWriter out;
    private static volatile Set<String> recorded = new HashSet<>();
    private static int lines;
    private static final ThreadLocal<Boolean> BUSY = new ThreadLocal<>();
    // Objects seen built, by identity hash: (a weak reference, the call that built it).
    private static final Map<Integer, java.util.List<Built>> BUILT = new HashMap<>();
    private static int built;

    private JunitbotCarver() {
    }

    public static void premain(String options, Instrumentation instrumentation) {
        try {
            String[] parts = options == null ? new String[0] : options.split("\\|", 3);
            if (parts.length < 2) {
                return;
            }
            recorded = new HashSet<>(Arrays.asList(parts[1].split(",")));
            Set<String> builders = new HashSet<>(recorded);
            if (parts.length == 3) {
                builders.addAll(Arrays.asList(parts[2].split(",")));
            }
            out = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(Paths.get(parts[0]),
                    StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE),
                    StandardCharsets.UTF_8));
            Runtime.getRuntime().addShutdownHook(new Thread(JunitbotCarver::close));
            Installer.install(recorded, builders, instrumentation);
        } catch (Throwable e) {
            System.err.println("junitbot carver not started: " + e);
        }
    }

    /** Called on entry to a public member of a class under test or of an argument's class: the call, described
     * (`builds`: a constructor or a static method, whose object of its own class is remembered as built by it; the
     * line of a class under test is written, with its `receiver` where that was seen built); null where it cannot
     * be. */
    public static Object describe(Class<?> type, String method, String signature, Object[] arguments,
                                  boolean builds, Object receiver) {
        if (BUSY.get() != null || out == null) {
            return null;
        }
        BUSY.set(Boolean.TRUE);
        try {
            StringBuilder line = new StringBuilder("{\"c\":").append(json(type.getName())).append(",\"m\":")
                    .append(json(method)).append(",\"s\":").append(json(signature)).append(",\"a\":[");
            StringBuilder texts = new StringBuilder();
            boolean rebuilt = true;
            for (int i = 0; i < arguments.length; i++) {
                line.append(i > 0 ? "," : "");
                String text = source(arguments[i]);
                line.append(text == null ? "null" : json(text));
                rebuilt = rebuilt && text != null;
                texts.append(i > 0 ? ", " : "").append(text);
            }
            line.append("]");
            String built = receiver == null ? null : builtBy(receiver);
            if (built != null) {
                line.append(",\"r\":").append(json(built));
            }
            String name = type.getCanonicalName();
            String expression = !builds || !rebuilt || name == null ? null : "<init>".equals(method)
                    ? "new " + name + "(" + texts + ")" : name + "." + method + "(" + texts + ")";
            return new Call(line.toString(), expression != null
                    && expression.length() <= MAX_EXPRESSION ? expression : null, type,
                    recorded.contains(type.getName()));
        } catch (Throwable ignored) {
            return null;  // a value this agent cannot read is one call less recorded, never a failed test
        } finally {
            BUSY.remove();
        }
    }

    /** Called when a method has returned or thrown: its line written (a class under test), and an object of its
     * own class it returned remembered as built by it. */
    public static void returned(Object call, boolean threw, Object result) {
        if (!(call instanceof Call)) {
            return;
        }
        Call described = (Call) call;
        if (!threw && result != null && result.getClass() == described.type && described.expression != null) {
            remember(result, described.expression);
        }
        if (described.recorded) {
            written(described.line, threw);
        }
    }

    /** Called when a constructor has returned: the object remembered as built by it (not a subclass's), and its
     * line written. */
    public static void constructed(Object call, Object self) {
        if (!(call instanceof Call)) {
            return;
        }
        Call described = (Call) call;
        if (self != null && self.getClass() == described.type && described.expression != null) {
            remember(self, described.expression);
        }
        if (described.recorded) {
            written(described.line, false);
        }
    }

    private static void written(String described, boolean threw) {
        try {
            String line = described + (threw ? ",\"t\":true}" : "}");
            String key = described.substring(0, described.indexOf(",\"a\":["));
            synchronized (JunitbotCarver.class) {
                int count = PER_KEY.getOrDefault(key, 0);
                // The same arguments on yet another receiver say less than new arguments: a suite that runs fifty
                // engines on one name would otherwise fill the member's share before its later tests' inputs.
                int receiverAt = described.indexOf(",\"r\":");
                String arguments = receiverAt < 0 ? described : described.substring(0, receiverAt);
                int receivers = PER_ARGUMENTS.getOrDefault(arguments, 0);
                if (lines >= MAX_LINES || count >= PER_MEMBER || receivers >= RECEIVERS_PER_ARGUMENTS
                        || !SEEN.add(line)) {
                    return;
                }
                PER_KEY.put(key, count + 1);
                PER_ARGUMENTS.put(arguments, receivers + 1);
                lines++;
                out.write(line);
                out.write('\n');
            }
        } catch (Throwable ignored) {
            // the test goes on whatever this agent could not write
        }
    }

    private static void remember(Object value, String expression) {
        try {
            synchronized (BUILT) {
                if (built >= MAX_BUILT) {
                    return;
                }
                BUILT.computeIfAbsent(System.identityHashCode(value), k -> new java.util.ArrayList<>())
                        .add(new Built(value, expression));
                built++;
            }
        } catch (Throwable ignored) {
            // one object fewer written as the call that built it
        }
    }

    /** The call that built `value`, or null. */
    private static String builtBy(Object value) {
        synchronized (BUILT) {
            java.util.List<Built> found = BUILT.get(System.identityHashCode(value));
            if (found != null) {
                for (Built entry : found) {
                    if (entry.get() == value) {
                        return entry.expression;
                    }
                }
            }
        }
        return null;
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
        if (value instanceof byte[]) {
            String text = asciiText((byte[]) value);
            if (text != null) {
                return text;
            }
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
        return builtBy(value);
    }

    /**
     * Bytes that are printable ASCII, as the text whose bytes they are ({@code "a+b c".getBytes(..US_ASCII)}): how a
     * codec's tests write their input, and not bound by the array's limit of items.
     */
    private static String asciiText(byte[] bytes) {
        if (bytes.length == 0 || bytes.length > MAX_TEXT) {
            return null;
        }
        for (byte b : bytes) {
            if (b < 0x20 || b > 0x7e) {
                return null;
            }
        }
        return quote(new String(bytes, StandardCharsets.US_ASCII), '"')
                + ".getBytes(java.nio.charset.StandardCharsets.US_ASCII)";
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

    /** A member's call as {@link #describe} saw it. */
    static final class Call {
        final String line;
        final String expression;
        final Class<?> type;
        final boolean recorded;

        Call(String line, String expression, Class<?> type, boolean recorded) {
            this.line = line;
            this.expression = expression;
            this.type = type;
            this.recorded = recorded;
        }
    }

    /** An object seen built, held weakly, and the call that built it. */
    static final class Built extends java.lang.ref.WeakReference<Object> {
        final String expression;

        Built(Object value, String expression) {
            super(value);
            this.expression = expression;
        }
    }

    /** Every Byte Buddy reference: loaded only once premain knows the agent may start. */
    static final class Installer {
        private Installer() {
        }

        static void install(Set<String> recorded, Set<String> builders, Instrumentation instrumentation) {
            // A class under test: every public member, its calls written; an argument's class: only how its
            // objects are built (constructors, static factories), remembered.
            new AgentBuilder.Default()
                    .type((type, loader, module, redefined, domain) -> recorded.contains(type.getName()))
                    .transform((builder, type, loader, module, domain) -> builder
                            .visit(Advice.to(InstanceEntry.class, MethodExit.class).on(ElementMatchers.isPublic()
                                    .and(ElementMatchers.not(ElementMatchers.isAbstract()))
                                    .and(ElementMatchers.not(ElementMatchers.isStatic()))
                                    .and(ElementMatchers.isMethod())))
                            .visit(Advice.to(Entry.class, MethodExit.class).on(ElementMatchers.isPublic()
                                    .and(ElementMatchers.isStatic()).and(ElementMatchers.isMethod())))
                            .visit(Advice.to(Entry.class, ConstructorExit.class).on(ElementMatchers.isPublic()
                                    .and(ElementMatchers.isConstructor()))))
                    .type((type, loader, module, redefined, domain) -> !recorded.contains(type.getName())
                            && builders.contains(type.getName()))
                    .transform((builder, type, loader, module, domain) -> builder
                            .visit(Advice.to(Entry.class, MethodExit.class).on(ElementMatchers.isPublic()
                                    .and(ElementMatchers.isStatic()).and(ElementMatchers.returns(type))))
                            .visit(Advice.to(Entry.class, ConstructorExit.class).on(ElementMatchers.isPublic()
                                    .and(ElementMatchers.isConstructor()))))
                    .installOn(instrumentation);
        }
    }

    /** Inlined at the start of each public constructor and static method of a class under test, and of each
     * public constructor and static factory of an argument's class. */
    static final class Entry {
        private Entry() {
        }

        @Advice.OnMethodEnter
        static Object enter(@Advice.Origin Class<?> type, @Advice.Origin("#m") String method,
                            @Advice.Origin("#s") String signature, @Advice.AllArguments Object[] arguments) {
            return JunitbotCarver.describe(type, method, signature, arguments, true, null);
        }
    }

    /** Inlined at the start of each public instance method of a class under test. */
    static final class InstanceEntry {
        private InstanceEntry() {
        }

        @Advice.OnMethodEnter
        static Object enter(@Advice.Origin Class<?> type, @Advice.Origin("#m") String method,
                            @Advice.Origin("#s") String signature, @Advice.AllArguments Object[] arguments,
                            @Advice.This Object self) {
            return JunitbotCarver.describe(type, method, signature, arguments, false, self);
        }
    }

    /** Inlined at the end of each such method: what it returned, and whether it threw. */
    static final class MethodExit {
        private MethodExit() {
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class)
        static void exit(@Advice.Enter Object call, @Advice.Thrown Throwable thrown,
                         @Advice.Return(typing = net.bytebuddy.implementation.bytecode.assign.Assigner.Typing.DYNAMIC)
                         Object result) {
            JunitbotCarver.returned(call, thrown != null, result);
        }
    }

    /** Inlined at the end of each such constructor: only when it returned (Byte Buddy cannot catch in one). */
    static final class ConstructorExit {
        private ConstructorExit() {
        }

        @Advice.OnMethodExit
        static void exit(@Advice.Enter Object call, @Advice.This Object self) {
            JunitbotCarver.constructed(call, self);
        }
    }
}
