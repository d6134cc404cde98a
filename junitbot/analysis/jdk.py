"""Names of common JDK types, so unresolved simple names get their real FQN (pure data)."""

from __future__ import annotations

from collections.abc import Sequence

_PACKAGES: dict[str, str] = {
    "java.lang": (
        "Object String StringBuilder StringBuffer CharSequence Integer Long Short Byte Character Boolean Float "
        "Double Number Math StrictMath System Thread Runnable Iterable Comparable Enum Record Class ClassLoader "
        "Exception RuntimeException Error Throwable IllegalArgumentException IllegalStateException "
        "NullPointerException UnsupportedOperationException IndexOutOfBoundsException ArithmeticException "
        "ClassCastException NumberFormatException ArrayIndexOutOfBoundsException InterruptedException "
        "CloneNotSupportedException SecurityException StackOverflowError OutOfMemoryError AssertionError "
        "Override Deprecated SuppressWarnings FunctionalInterface SafeVarargs AutoCloseable Cloneable Void "
        "Process ProcessBuilder Runtime ThreadLocal Appendable Readable StringIndexOutOfBoundsException "
        "ReflectiveOperationException ClassNotFoundException NoSuchFieldException NoSuchMethodException "
        "IllegalAccessException InstantiationException NegativeArraySizeException ArrayStoreException "
        "IllegalMonitorStateException LinkageError NoClassDefFoundError ExceptionInInitializerError "
        "VirtualMachineError InternalError StackTraceElement InheritableThreadLocal ThreadGroup StackWalker "
        "ProcessHandle IllegalCallerException Package Module"
    ),
    "java.util": (
        "List ArrayList LinkedList Map HashMap LinkedHashMap TreeMap Set HashSet LinkedHashSet TreeSet Collection "
        "Collections Arrays Optional OptionalInt OptionalLong OptionalDouble Objects UUID Iterator Deque ArrayDeque "
        "Queue PriorityQueue Comparator Random Locale Properties EnumMap EnumSet NavigableMap SortedMap "
        "NavigableSet SortedSet Stack Vector Hashtable BitSet Scanner StringJoiner NoSuchElementException "
        "ConcurrentModificationException Date Calendar Currency"
    ),
    "java.util.function": (
        "Function BiFunction Supplier Consumer BiConsumer Predicate BiPredicate UnaryOperator BinaryOperator "
        "IntFunction ToIntFunction ToLongFunction ToDoubleFunction IntPredicate"
    ),
    "java.util.stream": "Stream IntStream LongStream DoubleStream Collectors Collector",
    "java.util.concurrent": (
        "ConcurrentHashMap ConcurrentMap CompletableFuture Future ExecutorService Executors TimeUnit "
        "CopyOnWriteArrayList AtomicInteger AtomicLong CountDownLatch Callable TimeoutException ExecutionException"
    ),
    "java.time": (
        "Instant Duration LocalDate LocalDateTime LocalTime ZonedDateTime OffsetDateTime ZoneId ZoneOffset Clock "
        "Period YearMonth Year DayOfWeek Month"
    ),
    "java.math": "BigDecimal BigInteger RoundingMode MathContext",
    "java.io": (
        "IOException UncheckedIOException File InputStream OutputStream Reader Writer Serializable Closeable "
        "PrintStream BufferedReader"
    ),
    "java.nio.file": "Path Paths Files",
    "java.net": "URI URL",
}

_BY_NAME: dict[str, dict[str, str]] = {}
for _package, _names in _PACKAGES.items():
    for _name in _names.split():
        _BY_NAME.setdefault(_name, {})[_package] = f"{_package}.{_name}"


def jdk_fqn(name: str) -> str | None:
    """The JDK type a simple name most likely means, when only one common package has it."""
    known = _BY_NAME.get(name, {})
    return next(iter(known.values())) if len(known) == 1 else known.get("java.util")


def external_fqn(name: str, wildcard_packages: Sequence[str]) -> str | None:
    """`String` → `java.lang.String`; `List` under `import java.util.*` → `java.util.List`; else None."""
    known = _BY_NAME.get(name)
    if not known:
        return None
    if "java.lang" in known:
        return known["java.lang"]
    for package in wildcard_packages:
        if package in known:
            return known[package]
    return None


def is_java_lang(name: str) -> bool:
    """Whether a simple name is one of `java.lang`'s common types (implicitly imported everywhere)."""
    return "java.lang" in _BY_NAME.get(name, {})
