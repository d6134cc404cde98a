package junitbot.recorder;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import org.mockito.Answers;
import org.mockito.Mockito;
import org.mockito.invocation.Invocation;
import org.mockito.invocation.StubInfo;
import org.mockito.stubbing.Answer;
import org.mockito.stubbing.Stubbing;

/**
 * Records what a probe test observed (return values, thrown exceptions, collaborator calls) as JSON
 * lines, so that junitbot can write the final test asserting what the code really does.
 * Shipped with junitbot; compiled next to the probe tests, never part of a generated test.
 */
public final class Recorder {
    private static final int MAX_DEPTH = 3;
    private static final int MAX_ITEMS = 5;
    private static final int MAX_ELEMENTS = 64;
    private static final int MAX_TEXT = 200;
    /** What each scenario's call returned, to tell when it is the very object a stub answered. */
    private static final Map<String, Object> RESULTS = new HashMap<>();
    /** Per scenario, the objects its stubs return, described as they were before the call under test. */
    private static final Map<String, IdentityHashMap<Object, String>> STUBBED = new HashMap<>();

    private Recorder() {
    }

    public static void returned(String scenario, Object value) {
        synchronized (RESULTS) {
            RESULTS.put(scenario, value);
        }
        write("{\"scenario\":" + quote(scenario) + ",\"kind\":\"returned\",\"value\":" + describe(value, 0) + "}");
    }

    /** What an instance method returned, and whether it returned the instance itself (a fluent builder). */
    public static void returned(String scenario, Object value, Object subject) {
        synchronized (RESULTS) {
            RESULTS.put(scenario, value);
        }
        write("{\"scenario\":" + quote(scenario) + ",\"kind\":\"returned\",\"self\":" + (value != null && value == subject)
                + ",\"value\":" + describe(value, 0) + "}");
    }

    /** Describes what each stub of the mocks will return (an Optional's content), before the call under test. */
    public static void stubbed(String scenario, Object... mocks) {
        IdentityHashMap<Object, String> found = new IdentityHashMap<>();
        for (Object mock : mocks) {
            if (!isMock(mock)) {
                continue;
            }
            for (Stubbing stubbing : Mockito.mockingDetails(mock).getStubbings()) {
                Object value;
                try {
                    value = stubbing.answer(stubbing.getInvocation());
                } catch (Throwable thrown) {
                    continue;
                }
                if (value instanceof Optional) {
                    value = ((Optional<?>) value).orElse(null);
                }
                if (value != null && !(value instanceof Enum) && !value.getClass().getName().startsWith("java.")) {
                    found.put(value, describe(value, 0));
                }
            }
        }
        synchronized (RESULTS) {
            STUBBED.put(scenario, found);
        }
    }

    public static void returnedVoid(String scenario) {
        write("{\"scenario\":" + quote(scenario) + ",\"kind\":\"void\"}");
    }

    /** The observable state of the object under test, "before" or "after" the call. */
    public static void state(String scenario, String when, Object subject) {
        write("{\"scenario\":" + quote(scenario) + ",\"kind\":\"state\",\"when\":" + quote(when)
                + ",\"value\":" + describe(subject, 0) + "}");
    }

    /** What an in-memory sink the scenario passes (a StringBuilder, a StringWriter...) holds, "before" or "after". */
    public static void sink(String scenario, String when, String name, Object sink) {
        write("{\"scenario\":" + quote(scenario) + ",\"kind\":\"sink\",\"when\":" + quote(when)
                + ",\"name\":" + quote(name) + ",\"value\":" + describe(String.valueOf(sink), 0) + "}");
    }

    public static void threw(String scenario, Throwable thrown) {
        write("{\"scenario\":" + quote(scenario) + ",\"kind\":\"threw\",\"type\":"
                + quote(thrown.getClass().getName()) + ",\"message\":" + quote(thrown.getMessage()) + "}");
    }

    /**
     * Calls each mock received, as {"mock": name, "method": name, "arguments": n, "args": [values], "was": [values],
     * "stubbed": b, "returned": value, "default_answer": b, "result": b}: "was" describes an argument that a stub
     * returned as it was before the call under test (else null); what the call returned is its stub's answer, or
     * Mockito's default answer (null, empty, 0, false) when no stub matched; "result" says the method under test
     * returned that very object.
     */
    public static void interactions(String scenario, String[] names, Object... mocks) {
        Object result;
        IdentityHashMap<Object, String> stubbed;
        synchronized (RESULTS) {
            result = RESULTS.remove(scenario);
            stubbed = STUBBED.remove(scenario);
        }
        StringBuilder out = new StringBuilder("{\"scenario\":" + quote(scenario) + ",\"kind\":\"calls\",\"calls\":[");
        boolean first = true;
        for (int i = 0; i < mocks.length; i++) {
            if (!isMock(mocks[i])) {
                continue;
            }
            for (Invocation invocation : Mockito.mockingDetails(mocks[i]).getInvocations()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                out.append(call(names[i], mocks[i], invocation, result, stubbed));
            }
        }
        write(out.append("]}").toString());
    }

    private static String call(String name, Object mock, Invocation invocation, Object result,
            IdentityHashMap<Object, String> stubbed) {
        StringBuilder out = new StringBuilder("{\"mock\":").append(quote(name))
                .append(",\"method\":").append(quote(invocation.getMethod().getName()))
                .append(",\"arguments\":").append(invocation.getArguments().length)
                .append(",\"stubbed\":").append(invocation.stubInfo() != null)
                .append(",\"args\":[");
        Object[] arguments = invocation.getArguments();
        for (int a = 0; a < arguments.length; a++) {
            out.append(a > 0 ? "," : "").append(describe(arguments[a], 0));
        }
        out.append("],\"was\":[");
        for (int a = 0; a < arguments.length; a++) {
            String before = stubbed == null || arguments[a] == null ? null : stubbed.get(arguments[a]);
            out.append(a > 0 ? "," : "").append(before == null ? "null" : before);
        }
        out.append(']');
        if (invocation.getMethod().getReturnType() != void.class) {
            boolean byDefault = invocation.stubInfo() == null;
            Answer<?> answer = byDefault ? defaultAnswer(mock) : stubbing(mock, invocation.stubInfo());
            if (answer != null) {
                try {
                    Object returned = answer.answer(invocation);
                    out.append(",\"returned\":").append(describe(returned, 1))
                            .append(",\"default_answer\":").append(byDefault)
                            .append(",\"result\":").append(isResult(returned, result));
                } catch (Throwable thrown) {
                    // a stub that throws: the scenario's outcome says what happened
                }
            }
        }
        return out.append('}').toString();
    }

    /** Mockito's default answer when the mock was created with it (a deep-stub answer would build new mocks). */
    private static Answer<?> defaultAnswer(Object mock) {
        Answer<?> answer = Mockito.mockingDetails(mock).getMockCreationSettings().getDefaultAnswer();
        return answer == Answers.RETURNS_DEFAULTS ? answer : null;
    }

    /** The stub that answered a call: the one set up where the call's stub info says. */
    private static Answer<?> stubbing(Object mock, StubInfo info) {
        String where = String.valueOf(info.stubbedAt());
        for (Stubbing stubbing : Mockito.mockingDetails(mock).getStubbings()) {
            if (String.valueOf(stubbing.getInvocation().getLocation()).equals(where)) {
                return stubbing;
            }
        }
        return null;
    }

    /** Whether a stub's answer is what the method returned (itself or inside an Optional): an object, not a
     * cached box, string or constant that any two calls share. */
    private static boolean isResult(Object returned, Object result) {
        if (returned == null || returned instanceof Enum || returned.getClass().getName().startsWith("java.")) {
            return false;
        }
        return returned == result || (result instanceof Optional && ((Optional<?>) result).orElse(null) == returned);
    }

    /**
     * Whether `value` is a Mockito mock. Mockito makes every mock through its MockUtil (package
     * org.mockito.internal.util, Mockito 1 to 5): until a class of that package is loaded no value can be one, and
     * asking Mockito would start its mock maker for nothing, half a second of CPU in each probe JVM (Byte Buddy
     * loaded, an agent attached). `Mockito.class` loads Mockito's class without running its initialiser.
     */
    static boolean isMock(Object value) {
        if (value == null) {
            return false;
        }
        ClassLoader loader = Mockito.class.getClassLoader();
        if (loader != null && loader.getDefinedPackage("org.mockito.internal.util") == null) {
            return false;
        }
        return Mockito.mockingDetails(value).isMock();
    }

    static String describe(Object value, int depth) {
        if (value == null) {
            return "{\"t\":\"null\"}";
        }
        Class<?> type = value.getClass();
        if (value instanceof String) {
            return "{\"t\":\"String\",\"v\":" + quote((String) value) + "}";
        }
        if (value instanceof Character || value instanceof Boolean || value instanceof Byte
                || value instanceof Short || value instanceof Integer || value instanceof Long
                || value instanceof Float || value instanceof Double) {
            return "{\"t\":" + quote(type.getSimpleName()) + ",\"v\":" + quote(String.valueOf(value)) + "}";
        }
        if (value instanceof BigDecimal) {
            return "{\"t\":\"BigDecimal\",\"v\":" + quote(((BigDecimal) value).toPlainString()) + "}";
        }
        if (value instanceof BigInteger) {
            return "{\"t\":\"BigInteger\",\"v\":" + quote(value.toString()) + "}";
        }
        if (value instanceof Enum) {
            Enum<?> constant = (Enum<?>) value;
            return "{\"t\":\"enum\",\"class\":" + quote(constant.getDeclaringClass().getName())
                    + ",\"v\":" + quote(constant.name()) + "}";
        }
        if (value instanceof Optional) {
            Optional<?> optional = (Optional<?>) value;
            String inner = optional.isPresent() && depth < MAX_DEPTH ? describe(optional.get(), depth + 1) : "null";
            return "{\"t\":\"Optional\",\"present\":" + optional.isPresent() + ",\"value\":" + inner + "}";
        }
        if (value instanceof Collection) {
            return "{\"t\":\"Collection\",\"class\":" + quote(type.getName()) + ",\"size\":"
                    + ((Collection<?>) value).size() + ",\"items\":" + items(((Collection<?>) value).iterator(), depth) + "}";
        }
        if (value instanceof Map) {
            return "{\"t\":\"Map\",\"class\":" + quote(type.getName()) + ",\"size\":" + ((Map<?, ?>) value).size() + "}";
        }
        if (type.isArray()) {
            return "{\"t\":\"Array\",\"class\":" + quote(type.getName()) + ",\"size\":" + Array.getLength(value)
                    + elements(value, type.getComponentType(), depth) + "}";
        }
        if (isMock(value)) {
            return "{\"t\":\"mock\",\"class\":" + quote(type.getName()) + "}";
        }
        if (type.isRecord() && depth < MAX_DEPTH) {
            return "{\"t\":\"record\",\"class\":" + quote(type.getName()) + ",\"components\":"
                    + components(value, type.getRecordComponents(), depth) + "}";
        }
        String properties = depth < MAX_DEPTH && !type.getName().startsWith("java.") ? properties(value, type, depth) : "";
        return "{\"t\":\"object\",\"class\":" + quote(type.getName()) + ",\"text\":" + quote(safeToString(value))
                + (properties.isEmpty() ? "" : ",\"components\":" + properties) + "}";
    }

    /** Values of the accessors of a value object: public no-argument methods named after its fields, then its
     * other getters of plain values. */
    private static String properties(Object value, Class<?> type, int depth) {
        StringBuilder out = new StringBuilder("{");
        int count = 0;
        for (Method accessor : accessors(type)) {
            String described;
            try {
                described = describe(accessor.invoke(value), depth + 1);
            } catch (ReflectiveOperationException | RuntimeException e) {
                continue;
            }
            out.append(count++ > 0 ? "," : "").append(quote(accessor.getName())).append(':').append(described);
        }
        return count == 0 ? "" : out.append('}').toString();
    }

    /** A value's accessors by its class: found once per class, not per value described. */
    private static final Map<Class<?>, java.util.Collection<Method>> ACCESSORS =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static java.util.Collection<Method> accessors(Class<?> type) {
        return ACCESSORS.computeIfAbsent(type, Recorder::findAccessors);
    }

    private static java.util.Collection<Method> findAccessors(Class<?> type) {
        Map<String, Method> found = new java.util.LinkedHashMap<>();
        for (java.lang.reflect.Field field : type.getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(field.getModifiers()) || field.isSynthetic()) {
                continue;
            }
            String name = field.getName();
            String capitalised = Character.toUpperCase(name.charAt(0)) + name.substring(1);
            for (String candidate : new String[] {name, "get" + capitalised, "is" + capitalised}) {
                try {
                    Method accessor = type.getMethod(candidate);
                    if (accessor.getReturnType() != void.class && accessor.getDeclaringClass() != Object.class) {
                        found.putIfAbsent(candidate, accessor);
                        break;
                    }
                } catch (NoSuchMethodException e) {
                    // not this spelling
                }
            }
        }
        // Getters not named after a field (`getPositiveSignCharacter` over `positiveCharacter`, `getDescPadding`
        // over `defaultDescPad`): a setter's or wither's property is read back through them. Only those of plain
        // values, which are state, not work (a getter of a list may tokenize, of an object may build one).
        Method[] getters = type.getMethods();
        java.util.Arrays.sort(getters, java.util.Comparator.comparing(Method::getName));
        for (Method getter : getters) {
            String name = getter.getName();
            if (getter.getParameterCount() == 0 && !java.lang.reflect.Modifier.isStatic(getter.getModifiers())
                    && !getter.getDeclaringClass().getName().startsWith("java.")
                    && name.matches("(get|is)[A-Z]\\w*") && plainValue(getter.getReturnType())) {
                found.putIfAbsent(name, getter);
            }
        }
        return found.values().stream().limit(MAX_ITEMS * 2).collect(java.util.stream.Collectors.toList());
    }

    private static boolean plainValue(Class<?> type) {
        return type.isPrimitive() && type != void.class || type.isEnum() || type == String.class
                || type == Character.class || type == Boolean.class || Number.class.isAssignableFrom(type)
                && type.getName().startsWith("java.");
    }

    /** The elements of an array of primitives (up to MAX_ELEMENTS) or of strings (up to MAX_ITEMS): what a test
     * compares whole, where its length alone says little (a codec's encoded bytes). */
    private static String elements(Object array, Class<?> element, int depth) {
        int length = Array.getLength(array);
        if (!(element.isPrimitive() && length <= MAX_ELEMENTS) && !(element == String.class && length <= MAX_ITEMS)) {
            return "";
        }
        StringBuilder out = new StringBuilder(",\"items\":[");
        for (int i = 0; i < length; i++) {
            out.append(i > 0 ? "," : "").append(describe(Array.get(array, i), depth + 1));
        }
        return out.append(']').toString();
    }

    private static String items(Iterator<?> iterator, int depth) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < MAX_ITEMS && iterator.hasNext() && depth < MAX_DEPTH; i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(describe(iterator.next(), depth + 1));
        }
        return out.append(']').toString();
    }

    private static String components(Object value, RecordComponent[] components, int depth) {
        StringBuilder out = new StringBuilder("{");
        for (int i = 0; i < components.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            String described;
            try {
                Method accessor = components[i].getAccessor();
                accessor.setAccessible(true);
                described = describe(accessor.invoke(value), depth + 1);
            } catch (ReflectiveOperationException | RuntimeException e) {
                described = "{\"t\":\"unreadable\"}";
            }
            out.append(quote(components[i].getName())).append(':').append(described);
        }
        return out.append('}').toString();
    }

    private static String safeToString(Object value) {
        try {
            String text = String.valueOf(value);
            return text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) : text;
        } catch (RuntimeException e) {
            return "<toString threw " + e.getClass().getName() + ">";
        }
    }

    static String quote(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        return out.append('"').toString();
    }

    private static synchronized void write(String line) {
        String path = System.getProperty("junitbot.observations", "junitbot-observations.jsonl");
        try (Writer writer = new OutputStreamWriter(new FileOutputStream(path, true), StandardCharsets.UTF_8)) {
            writer.write(line);
            writer.write('\n');
        } catch (IOException e) {
            throw new IllegalStateException("junitbot recorder cannot write " + path, e);
        }
    }
}
