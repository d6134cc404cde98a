/*
 * The test JVM's recording guard, for junitbot.validation.guard (issue 18: dangerous behaviour is caught by what
 * it does, not how it is spelled).
 *
 * A JUnit Platform TestExecutionListener, registered through META-INF/services in the folder junitbot compiles it
 * into. When the test plan starts it installs a SecurityManager that refuses, by throwing SecurityException in the
 * code that tried, and records:
 *
 *   exec     starting a process (Runtime.exec, ProcessBuilder.start), however the call was reached (reflection,
 *            a library): the check sits in the JDK on the operation itself, not on how a test spells it;
 *   exit     System.exit and Runtime.halt while tests run, so that one test's exit fails that test instead of
 *            ending the JVM and its siblings with it (the launcher's own exit after the plan is allowed);
 *   connect  a connection to, or a datagram for, anything but loopback, and a Unix domain socket (a Docker
 *            socket is a way out of the sandbox); resolving a name is allowed (InetAddress.getLocalHost
 *            resolves the machine's name, and logging libraries call it);
 *   accept   a connection accepted from anything but loopback;
 *   write    writing, creating, renaming or changing a file outside the allowed roots (the run's work
 *            directory, its java.io.tmpdir and the paths junitbot lets it write), after resolving symlinks
 *            and "..";
 *   delete   deleting such a file;
 *   guard    installing another SecurityManager (a test removing the guard).
 *
 * Every other permission is granted, without the default SecurityManager's checks: reading files, reflection,
 * properties, class loaders and threads behave as without a guard.
 *
 * Each attempt is one line of the log, "<action> TAB <owner> TAB <detail>", where the owner is what was
 * running, as PerTestCoverage names it ("pkg.FooTest#method", the class "pkg.FooTest" for its own work such as
 * @BeforeAll and construction, "" outside any test). The test running is global, not per thread: tests run one
 * at a time (parallel execution is switched off), and work a test hands to another thread (JUnit's
 * SEPARATE_THREAD timeouts, an executor) still belongs to it. "started TAB <owner>" and "finished TAB <owner>"
 * lines, written and flushed as each test or class starts and ends, tell which test was running when a JVM
 * died of something the guard cannot stop (a crash, a kill). The first line says whether the guard is on:
 * "guarded TAB TAB <java version>", or "unavailable TAB TAB <why>" where the JVM no longer has a SecurityManager
 * (JDK 24 and later) or does not allow one; then only the started and finished lines are written.
 *
 * The log is JUnit's configuration parameter junitbot.guard.log (a file), the allowed roots junitbot.guard.roots
 * (joined by File.pathSeparator). Without a log the listener does nothing.
 *
 * OutOfMemoryAsError, a Jupiter extension registered through autodetection (restricted to it), turns an
 * OutOfMemoryError thrown by a test method or its @BeforeEach/@AfterEach into an ordinary error of that test:
 * JUnit treats OutOfMemoryError as unrecoverable and ends the whole run, every other test with it.
 */

import java.io.File;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.NetPermission;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.Permission;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;
import java.util.regex.Pattern;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

public final class SandboxGuard implements TestExecutionListener {

    static final String LOG_PARAMETER = "junitbot.guard.log";
    static final String ROOTS_PARAMETER = "junitbot.guard.roots";

    private final Deque<String> owners = new ArrayDeque<>();
    private Recorder recorder;

    @Override
    public synchronized void testPlanExecutionStarted(TestPlan testPlan) {
        Optional<String> log = testPlan.getConfigurationParameters().get(LOG_PARAMETER);
        if (!log.isPresent()) {
            return;
        }
        String roots = testPlan.getConfigurationParameters().get(ROOTS_PARAMETER).orElse("");
        try {
            recorder = new Recorder(Files.newOutputStream(Paths.get(log.get())));
        } catch (IOException | RuntimeException e) {
            System.err.println("junitbot SandboxGuard: cannot write its log, tests run unguarded: " + e);
            return;
        }
        // The common pool picks its thread factory when first used, and picks a different one (threads that
        // drop their thread-locals) once a SecurityManager is installed: created now, it is the usual one.
        ForkJoinPool.commonPool();
        try {
            // JDK 17 to 23 print a warning that SecurityManager is going away on the JVM's initial stderr;
            // junit.py leaves it out of the output it reports.
            System.setSecurityManager(new Guard(recorder, roots));
            recorder.write("guarded", "", System.getProperty("java.version"));
        } catch (UnsupportedOperationException | SecurityException e) {
            recorder.write("unavailable", "", "Java " + System.getProperty("java.version") + ": " + e.getMessage());
        }
    }

    @Override
    public synchronized void executionStarted(TestIdentifier testIdentifier) {
        if (recorder == null) {
            return;
        }
        String owner = owner(testIdentifier);
        owners.push(owner != null ? owner : recorder.owner);
        if (owner != null) {
            recorder.owner = owner;
            recorder.write("started", owner, "");
        }
    }

    @Override
    public synchronized void executionFinished(TestIdentifier testIdentifier, TestExecutionResult result) {
        if (recorder == null) {
            return;
        }
        String owner = owners.poll();
        String outer = owners.peek();
        if (owner(testIdentifier) != null) {
            recorder.write("finished", owner, "");
        }
        recorder.owner = outer != null ? outer : "";
    }

    @Override
    public synchronized void testPlanExecutionFinished(TestPlan testPlan) {
        if (recorder != null) {
            recorder.owner = "";
            recorder.testsRunning = false;  // the launcher may exit now
        }
    }

    /** The test method (class#method) or class a node stands for; null for one with neither as its source. */
    private static String owner(TestIdentifier testIdentifier) {
        TestSource source = testIdentifier.getSource().orElse(null);
        if (source instanceof MethodSource) {
            MethodSource method = (MethodSource) source;
            return method.getClassName() + "#" + method.getMethodName();
        }
        if (source instanceof ClassSource) {
            return ((ClassSource) source).getClassName();
        }
        return null;
    }

    /** The log and the test running now, shared by the listener and the guard. */
    private static final class Recorder {

        private final OutputStream log;
        volatile String owner = "";
        volatile boolean testsRunning = true;

        Recorder(OutputStream log) {
            this.log = log;
        }

        synchronized void write(String action, String owner, String detail) {
            String line = action + "\t" + owner + "\t" + detail.replaceAll("[\\t\\r\\n]", " ") + "\n";
            try {
                log.write(line.getBytes(StandardCharsets.UTF_8));
                log.flush();  // a JVM that dies next must leave this line behind
            } catch (IOException e) {
                System.err.println("junitbot SandboxGuard: cannot write its log: " + e);
            }
        }
    }

    /** Refuses and records what tests must not do; grants everything else. */
    @SuppressWarnings("removal")
    private static final class Guard extends SecurityManager {

        private static final Pattern LOOPBACK_V4 = Pattern.compile("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
        private static final List<String> DEVICES = List.of("/dev/null", "/dev/stdout", "/dev/stderr");

        private final Recorder recorder;
        private final List<String> roots = new ArrayList<>();

        Guard(Recorder recorder, String roots) {
            this.recorder = recorder;
            for (String root : roots.split(Pattern.quote(File.pathSeparator))) {
                if (!root.isEmpty()) {
                    this.roots.add(canonical(root));
                }
            }
        }

        @Override
        public void checkPermission(Permission permission) {
            if (permission instanceof RuntimePermission && "setSecurityManager".equals(permission.getName())) {
                refuse("guard", "replace junitbot's sandbox guard");
            }
            if (permission instanceof NetPermission && "accessUnixDomainSocket".equals(permission.getName())) {
                refuse("connect", "a Unix domain socket");
            }
        }

        @Override
        public void checkPermission(Permission permission, Object context) {
            checkPermission(permission);
        }

        @Override
        public void checkExec(String command) {
            refuse("exec", command);
        }

        @Override
        public void checkExit(int status) {
            if (recorder.testsRunning) {
                refuse("exit", Integer.toString(status));
            }
        }

        @Override
        public void checkConnect(String host, int port) {
            if (port >= 0 && !isLoopback(host)) {  // port -1: only resolving the name
                refuse("connect", host + ":" + port);
            }
        }

        @Override
        public void checkConnect(String host, int port, Object context) {
            checkConnect(host, port);
        }

        @Override
        public void checkAccept(String host, int port) {
            if (!isLoopback(host)) {
                refuse("accept", host + ":" + port);
            }
        }

        @Override
        public void checkListen(int port) {
            // Allowed: the sandbox has no network, so only loopback can reach a server a test starts.
        }

        @Override
        public void checkMulticast(InetAddress address) {
            refuse("connect", "multicast " + address.getHostAddress());
        }

        @Override
        @SuppressWarnings("deprecation")
        public void checkMulticast(InetAddress address, byte ttl) {
            checkMulticast(address);
        }

        @Override
        public void checkWrite(String file) {
            if (!isAllowed(file)) {
                refuse("write", file);
            }
        }

        @Override
        public void checkWrite(FileDescriptor descriptor) {
            // An open descriptor (System.out, a stream opened before): opening it was checked.
        }

        @Override
        public void checkDelete(String file) {
            if (!isAllowed(file)) {
                refuse("delete", file);
            }
        }

        private boolean isAllowed(String file) {
            if (DEVICES.contains(file)) {
                return true;
            }
            String path = canonical(file);
            for (String root : roots) {
                if (path.equals(root) || path.startsWith(root.endsWith(File.separator) ? root : root + File.separator)) {
                    return true;
                }
            }
            return false;
        }

        private static String canonical(String file) {
            File path = new File(file);
            try {
                return path.getCanonicalPath();  // symlinks and ".." resolved: a link in the work dir leads nowhere
            } catch (IOException e) {
                return path.getAbsoluteFile().toPath().normalize().toString();
            }
        }

        private static boolean isLoopback(String host) {
            String name = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
            name = name.toLowerCase(java.util.Locale.ROOT);
            return name.equals("localhost") || name.endsWith(".localhost") || LOOPBACK_V4.matcher(name).matches()
                    || name.equals("::1") || name.equals("0:0:0:0:0:0:0:1") || name.startsWith("::ffff:127.");
        }

        private void refuse(String action, String detail) {
            recorder.write(action, recorder.owner, detail);
            throw new SecurityException("junitbot's sandbox guard refused this test's attempt to " + action + " ("
                    + detail + "): validated tests must not start processes, exit the JVM, use the network or "
                    + "write outside their working directory");
        }
    }

    /** Turns an OutOfMemoryError of a test method into an error of that test, so the run goes on. */
    public static final class OutOfMemoryAsError implements InvocationInterceptor {

        @Override
        public void interceptTestMethod(Invocation<Void> invocation,
                ReflectiveInvocationContext<Method> invocationContext, ExtensionContext extensionContext)
                throws Throwable {
            survive(invocation);
        }

        @Override
        public void interceptTestTemplateMethod(Invocation<Void> invocation,
                ReflectiveInvocationContext<Method> invocationContext, ExtensionContext extensionContext)
                throws Throwable {
            survive(invocation);
        }

        @Override
        public <T> T interceptTestFactoryMethod(Invocation<T> invocation,
                ReflectiveInvocationContext<Method> invocationContext, ExtensionContext extensionContext)
                throws Throwable {
            return survive(invocation);
        }

        @Override
        public void interceptBeforeEachMethod(Invocation<Void> invocation,
                ReflectiveInvocationContext<Method> invocationContext, ExtensionContext extensionContext)
                throws Throwable {
            survive(invocation);
        }

        @Override
        public void interceptAfterEachMethod(Invocation<Void> invocation,
                ReflectiveInvocationContext<Method> invocationContext, ExtensionContext extensionContext)
                throws Throwable {
            survive(invocation);
        }

        private static <T> T survive(Invocation<T> invocation) throws Throwable {
            try {
                return invocation.proceed();
            } catch (OutOfMemoryError e) {
                // What the test held is garbage once it unwound; the message is all that is kept.
                throw new IllegalStateException("java.lang.OutOfMemoryError: " + e.getMessage()
                        + " (the test JVM's heap is " + (Runtime.getRuntime().maxMemory() >> 20)
                        + " MiB: validation.max_heap)");
            }
        }
    }
}
